/**
 * The text commands (GNU coreutils 9.1 and the util-linux, binutils and xxd tools scripts use
 * beside them), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { catCommand } from './cat.js';
import { headCommand } from './head.js';

export const textCommands: readonly CommandSpec[] = [catCommand, headCommand];
