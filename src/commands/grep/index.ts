/**
 * The grep family's command specs.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { runGrep } from './grep.js';
import { GREP_HELP } from './help.js';

export const grepCommands: readonly CommandSpec[] = [
  {
    name: 'grep',
    summary: 'print lines that match patterns',
    help: GREP_HELP,
    run: (ctx) => runGrep(ctx, 'bre'),
  },
  {
    name: 'egrep',
    summary: 'print lines that match extended regular expressions (grep -E)',
    help: GREP_HELP,
    run: (ctx) => runGrep(ctx, 'ere'),
  },
  {
    name: 'fgrep',
    summary: 'print lines that contain fixed strings (grep -F)',
    help: GREP_HELP,
    run: (ctx) => runGrep(ctx, 'fixed'),
  },
];
