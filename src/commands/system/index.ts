/**
 * The system commands (GNU coreutils 9.1 and findutils' xargs, GNU time, debianutils' which),
 * with the virtual shell's own identity, host and clock, as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { echoCommand, falseCommand, trueCommand } from './basic.js';
import { dateCommand } from './date.js';
import { envCommand, printenvCommand, whichCommand } from './env.js';
import { hostnameCommand, nprocCommand, ttyCommand, unameCommand } from './host-info.js';
import { groupsCommand, idCommand, whoamiCommand } from './identity-commands.js';
import { sleepCommand, timeoutCommand } from './waiting.js';
import { niceCommand, nohupCommand, timeCommand } from './wrappers.js';
import { xargsCommand } from './xargs.js';

export const systemCommands: readonly CommandSpec[] = [
  echoCommand,
  trueCommand,
  falseCommand,
  envCommand,
  printenvCommand,
  whichCommand,
  dateCommand,
  sleepCommand,
  timeoutCommand,
  nohupCommand,
  niceCommand,
  timeCommand,
  unameCommand,
  hostnameCommand,
  nprocCommand,
  ttyCommand,
  whoamiCommand,
  idCommand,
  groupsCommand,
  xargsCommand,
];
