/**
 * The network commands: `curl` and `wget`, through `fetch`, only within the context's allowlist.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { curlCommand } from './curl.js';
import { wgetCommand } from './wget.js';

export const netCommands: readonly CommandSpec[] = [curlCommand, wgetCommand];
