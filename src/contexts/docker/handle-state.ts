/**
 * What the Docker context keeps per handle: its container, how files reach it, its environment,
 * its spill directory and spill files, and the streams and terminals `destroy` must end. The table itself is the
 * shared `HandleTable`.
 * @module
 */
import type { ContextHandle } from '../../contract/types.js';
import {
  type FileIdentity,
  openPrivateDirectory,
  type PrivateDirectory,
} from '../../subprocess/private-dir.js';

export const CONTEXT_TYPE = 'docker';

/** The context-side state of one handle. */
export interface HandleState {
  readonly handle: ContextHandle;
  readonly containerId: string;
  /**
   * File bytes move through execs instead of the archive API: when the container runs as a
   * configured user (the archive API would act as root), or under a runtime other than runc (a
   * sandboxed runtime such as gVisor keeps its root filesystem where the archive API cannot see).
   */
  readonly filesViaExec: boolean;
  /** The root filesystem is read-only: archive writes go to the deepest existing directory. */
  readonly readOnlyRoot: boolean;
  /** The handle's `env` (the container's own environment). */
  readonly env: Readonly<Record<string, string>>;
  /** Private host directory for this handle's spill files (made on first need). */
  spillDir: PrivateDirectory | undefined;
  /** Spill files an `exec` result named and that are still on the host, by path: what `moveSpill` may move. */
  readonly spills: Map<string, FileIdentity>;
  /** Live execs, streams and terminals, ended by destroy. */
  readonly live: Set<() => Promise<void>>;
}

/** The handle's spill directory, made on first use. */
export function spillDirOf(state: HandleState): PrivateDirectory {
  state.spillDir ??= openPrivateDirectory('berth-docker-');
  return state.spillDir;
}
