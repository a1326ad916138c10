/**
 * The compare and patch commands (GNU diffutils 3.8's cmp and diff, GNU patch 2.7.6), as command
 * specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { cmpCommand } from './cmp.js';
import { diffCommand } from './diff.js';
import { patchCommand } from './patch.js';

export const compareCommands: readonly CommandSpec[] = [cmpCommand, diffCommand, patchCommand];
