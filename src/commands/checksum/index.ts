/**
 * The checksum and encoding commands (GNU coreutils 9.1's md5sum, sha*sum, b2sum, cksum, base64,
 * base32 and basenc), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { base32Command, base64Command, basencCommand } from './basenc.js';
import { cksumCommand } from './cksum.js';
import { checksumCommands } from './sums.js';

export const checksumFamily: readonly CommandSpec[] = [
  ...checksumCommands,
  cksumCommand,
  base64Command,
  base32Command,
  basencCommand,
];
