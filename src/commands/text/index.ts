/**
 * The text commands (GNU coreutils 9.1 and the util-linux, binutils and xxd tools scripts use
 * beside them), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { catCommand } from './cat.js';
import { commCommand } from './comm.js';
import { cutCommand } from './cut.js';
import { headCommand } from './head.js';
import { joinCommand } from './join.js';
import { pasteCommand } from './paste.js';
import { sortCommand } from './sort/sort.js';
import { tailCommand } from './tail.js';
import { trCommand } from './tr.js';
import { uniqCommand } from './uniq.js';
import { wcCommand } from './wc.js';

export const textCommands: readonly CommandSpec[] = [
  catCommand,
  headCommand,
  tailCommand,
  cutCommand,
  trCommand,
  sortCommand,
  uniqCommand,
  wcCommand,
  pasteCommand,
  joinCommand,
  commCommand,
];
