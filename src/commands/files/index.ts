/**
 * The file commands (GNU coreutils 9.1 and findutils 4.9 over the virtual filesystem), as command
 * specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { dirCommand, lsCommand, vdirCommand } from './ls/ls.js';
import { basenameCommand, dirnameCommand } from './path-names.js';

export const fileCommands: readonly CommandSpec[] = [
  lsCommand,
  dirCommand,
  vdirCommand,
  basenameCommand,
  dirnameCommand,
];
