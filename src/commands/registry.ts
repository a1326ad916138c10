/**
 * The commands the virtual shell has built in, by name. Each command family adds its specs here.
 * @module
 */
import { archiveCommands } from './archive/index.js';
import { awkCommand } from './awk/awk.js';
import { bcCommand } from './bc/bc.js';
import { checksumFamily } from './checksum/index.js';
import type { CommandSpec } from './command.js';
import { compareCommands } from './compare/index.js';
import { exprCommand } from './expr/expr.js';
import { fileCommands } from './files/index.js';
import { grepCommands } from './grep/index.js';
import { jqCommand } from './jq/index.js';
import { netCommands } from './net/index.js';
import { sedCommands } from './sed/index.js';
import { systemCommands } from './system/index.js';
import { textCommands } from './text/index.js';
import { yqCommand } from './yq/yq-command.js';

/** Every built-in command (a fresh map per call, so a kernel may add or remove its own). */
export function builtinCommands(): Map<string, CommandSpec> {
  const specs: CommandSpec[] = [
    ...grepCommands,
    ...sedCommands,
    jqCommand,
    yqCommand,
    awkCommand('awk'),
    awkCommand('gawk'),
    bcCommand,
    exprCommand,
    ...textCommands,
    ...fileCommands,
    ...systemCommands,
    ...compareCommands,
    ...checksumFamily,
    ...archiveCommands,
    ...netCommands,
  ];
  return new Map(specs.map((s) => [s.name, s]));
}
