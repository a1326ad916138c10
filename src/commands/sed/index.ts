/**
 * The sed command spec.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { SED_HELP } from './help.js';
import { runSed } from './sed.js';

export const sedCommands: readonly CommandSpec[] = [
  { name: 'sed', summary: 'stream editor for filtering and transforming text', help: SED_HELP, run: runSed },
];
