/**
 * Promise wrappers over Node's callback file calls on plain descriptor numbers. A hot read path
 * opens, stats, reads and closes one file per call; a `FileHandle` object for each costs more than
 * the four system calls themselves (its construction, its close tracking and its collection).
 * @module
 */
import { close, fchmod, fstat, ftruncate, open, read, readlinkSync, type Stats, write } from 'node:fs';

export function openFd(path: string, flags: number, mode = 0o666): Promise<number> {
  return new Promise((resolve, reject) => {
    open(path, flags, mode, (error, fd) => (error ? reject(error) : resolve(fd)));
  });
}

export function fstatFd(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => {
    fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats)));
  });
}

export function readFd(fd: number, into: Uint8Array, offset: number, length: number, position: number) {
  return new Promise<number>((resolve, reject) => {
    read(fd, into, offset, length, position, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}

export function writeFd(fd: number, from: Uint8Array, offset: number, length: number, position: number) {
  return new Promise<number>((resolve, reject) => {
    write(fd, from, offset, length, position, (error, bytesWritten) =>
      error ? reject(error) : resolve(bytesWritten),
    );
  });
}

export function ftruncateFd(fd: number, length: number): Promise<void> {
  return new Promise((resolve, reject) => {
    ftruncate(fd, length, (error) => (error ? reject(error) : resolve()));
  });
}

export function fchmodFd(fd: number, mode: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fchmod(fd, mode, (error) => (error ? reject(error) : resolve()));
  });
}

/** Close and wait (a descriptor written through: a deferred write error shows here). */
export function closeFdAndWait(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    close(fd, (error) => (error ? reject(error) : resolve()));
  });
}

/** Close without waiting: a descriptor only read from (or a directory's) has nothing to flush. */
export function closeFd(fd: number): void {
  close(fd, () => undefined);
}

/**
 * Where the kernel says an open descriptor is now (`/proc/self/fd/<fd>`), or null when it cannot
 * say. Synchronous on purpose: procfs answers from memory (the dentry's name), it never waits on a
 * disk or a network filesystem, and a round trip through the thread pool would cost more than the
 * call.
 */
export function descriptorPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}
