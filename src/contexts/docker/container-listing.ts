/**
 * `listFiles` in a container: the shared `find … -exec stat` listing (`../shared/find-listing.ts`)
 * with its helper commands run as execs of this container.
 * @module
 */
import type { FileEntry } from '../../contract/types.js';
import {
  listGlob as globIn,
  type HelperRunner,
  type ListingLimits,
  listDirectory as listIn,
} from '../shared/find-listing.js';
import { collectExec } from './collect-exec.js';
import type { EngineClient } from './engine-client.js';

function runner(client: EngineClient, containerId: string): HelperRunner {
  return (argv, options) => collectExec(client, containerId, argv, options);
}

/** Immediate entries of a directory, sorted by name. @throws NotFoundError, E_NOT_DIRECTORY */
export function listDirectory(
  client: EngineClient,
  containerId: string,
  path: string,
  limits: ListingLimits,
): Promise<FileEntry[]> {
  return listIn(runner(client, containerId), path, limits);
}

/** Files (not directories) matching an absolute glob, sorted by path. A missing base matches nothing. */
export function listGlob(
  client: EngineClient,
  containerId: string,
  pattern: string,
  limits: ListingLimits,
): Promise<FileEntry[]> {
  return globIn(runner(client, containerId), pattern, limits);
}
