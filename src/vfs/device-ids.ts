/**
 * Device numbers for in-process filesystems: each memory filesystem, overlay and device table
 * gets its own, so `(dev, ino)` identifies a file across a mount table as it does on a real
 * system. Numbers start high to stay clear of the host's device numbers.
 * @module
 */

let next = 0x7f00_0000;

/** A device number no other in-process filesystem of this process has. */
export function nextDeviceId(): number {
  return next++;
}
