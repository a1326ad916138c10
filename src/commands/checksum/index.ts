/**
 * The checksum and encoding commands (GNU coreutils 9.1's md5sum, sha*sum and base64), as command
 * specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { base64Command } from './base64.js';
import { checksumCommands } from './sums.js';

export const checksumFamily: readonly CommandSpec[] = [...checksumCommands, base64Command];
