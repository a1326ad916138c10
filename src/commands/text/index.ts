/**
 * The text commands (GNU coreutils 9.1 and the util-linux, binutils and xxd tools scripts use
 * beside them), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { catCommand } from './cat.js';
import { columnCommand } from './column.js';
import { commCommand } from './comm.js';
import { cutCommand } from './cut.js';
import { expandCommand, unexpandCommand } from './expand.js';
import { fmtCommand } from './fmt.js';
import { foldCommand } from './fold.js';
import { headCommand } from './head.js';
import { hexdumpCommand } from './hexdump.js';
import { joinCommand } from './join.js';
import { nlCommand } from './nl.js';
import { numfmtCommand } from './numfmt.js';
import { odCommand } from './od.js';
import { pasteCommand } from './paste.js';
import { printfCommand } from './printf.js';
import { revCommand } from './rev.js';
import { seqCommand } from './seq.js';
import { shufCommand } from './shuf.js';
import { sortCommand } from './sort/sort.js';
import { splitCommand } from './split.js';
import { stringsCommand } from './strings.js';
import { tacCommand } from './tac.js';
import { tailCommand } from './tail.js';
import { teeCommand } from './tee.js';
import { trCommand } from './tr.js';
import { uniqCommand } from './uniq.js';
import { wcCommand } from './wc.js';
import { xxdCommand } from './xxd.js';
import { yesCommand } from './yes.js';

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
  printfCommand,
  seqCommand,
  yesCommand,
  teeCommand,
  stringsCommand,
  shufCommand,
  odCommand,
  xxdCommand,
  hexdumpCommand,
  splitCommand,
  numfmtCommand,
  columnCommand,
  fmtCommand,
];
