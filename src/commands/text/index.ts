/**
 * The text commands (GNU coreutils 9.1 and the util-linux, binutils and xxd tools scripts use
 * beside them), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { catCommand } from './cat.js';
import { commCommand } from './comm.js';
import { cutCommand } from './cut.js';
import { expandCommand, unexpandCommand } from './expand.js';
import { foldCommand } from './fold.js';
import { headCommand } from './head.js';
import { joinCommand } from './join.js';
import { nlCommand } from './nl.js';
import { pasteCommand } from './paste.js';
import { revCommand } from './rev.js';
import { sortCommand } from './sort/sort.js';
import { tacCommand } from './tac.js';
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
  foldCommand,
  revCommand,
  tacCommand,
  expandCommand,
  unexpandCommand,
  nlCommand,
];
