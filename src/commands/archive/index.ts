/**
 * The archive commands (GNU tar 1.34's tar; gzip 1.12's gzip, gunzip and zcat), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { gunzipCommand, gzipCommand, zcatCommand } from './gzip.js';
import { tarCommand } from './tar.js';

export const archiveCommands: readonly CommandSpec[] = [tarCommand, gzipCommand, gunzipCommand, zcatCommand];
