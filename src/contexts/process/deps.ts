/**
 * What each part of the process context shares: configuration, the subprocess runtime, the
 * private files, the background registry, and the filesystem.
 * @module
 */

import { resolve } from 'node:path';
import type { BackgroundRegistry } from '../../contract/background-registry.js';
import { describeValue } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { LocalSubprocessRuntime } from '../../subprocess/local-runtime.js';
import type { LocalFileSystem } from '../../vfs/local-fs.js';
import type { HandleState } from './handle-state.js';
import type { ProcessContextConfig } from './options.js';
import type { PrivateFiles } from './private-files.js';

export interface ProcessDeps {
  readonly config: ProcessContextConfig;
  readonly runtime: LocalSubprocessRuntime;
  readonly files: PrivateFiles;
  readonly registry: BackgroundRegistry;
  readonly fs: LocalFileSystem;
}

/** The directory a command runs in: the handle's, or `cwd` resolved against it. */
export function workingDirectory(state: HandleState, cwd: unknown, field: string): string {
  if (cwd === undefined) return state.cwd;
  if (typeof cwd !== 'string' || cwd.length === 0 || cwd.includes('\0')) {
    throw new InvalidArgumentError(field, `must be a non-empty path string, got ${describeValue(cwd)}`);
  }
  return resolve(state.cwd, cwd);
}
