/**
 * The archive commands (gzip 1.12's gzip, gunzip and zcat), as command specs for the registry.
 * @module
 */
import type { CommandSpec } from '../command.js';
import { gunzipCommand, gzipCommand, zcatCommand } from './gzip.js';

export const archiveCommands: readonly CommandSpec[] = [gzipCommand, gunzipCommand, zcatCommand];
