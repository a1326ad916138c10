/**
 * The file commands (GNU coreutils 9.1 and findutils 4.9 over the virtual filesystem), as command
 * specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { chmodCommand } from './chmod.js';
import { cpCommand } from './cp.js';
import { ddCommand } from './dd.js';
import { dfCommand } from './df.js';
import { duCommand } from './du.js';
import { fileCommand } from './file.js';
import { findCommand } from './find/find.js';
import { lnCommand } from './ln.js';
import { dirCommand, lsCommand, vdirCommand } from './ls/ls.js';
import { mkdirCommand, rmdirCommand } from './mkdir.js';
import { mkfifoCommand } from './mkfifo.js';
import { mktempCommand } from './mktemp.js';
import { mvCommand } from './mv.js';
import { basenameCommand, dirnameCommand } from './path-names.js';
import { readlinkCommand, realpathCommand } from './realpath.js';
import { rmCommand } from './rm.js';
import { statCommand } from './stat.js';
import { touchCommand } from './touch.js';
import { treeCommand } from './tree.js';
import { truncateCommand } from './truncate.js';

export const fileCommands: readonly CommandSpec[] = [
  lsCommand,
  dirCommand,
  vdirCommand,
  cpCommand,
  mvCommand,
  rmCommand,
  mkdirCommand,
  rmdirCommand,
  touchCommand,
  lnCommand,
  chmodCommand,
  truncateCommand,
  ddCommand,
  realpathCommand,
  readlinkCommand,
  basenameCommand,
  dirnameCommand,
  statCommand,
  duCommand,
  dfCommand,
  mktempCommand,
  findCommand,
  mkfifoCommand,
  fileCommand,
  treeCommand,
];
