/**
 * The transactions of a handle whose commands run over a workspace overlay: `changes`, `diff`,
 * `commit`, `discard` and `fork`, in host paths (the workspace's own), over the VFS overlay of the
 * handle's state directory. Every look reads the upper layer again first (real tools changed it
 * through the kernel mount); `commit` and `discard` need the handle's commands to have stopped,
 * and apply with the overlay unmounted (the kernel forbids changing its layers while mounted).
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describeValue, knownOptions, optionKeys } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { isInsideOrEqual } from '../../sandbox/path-inside.js';
import type { VfsFileType } from '../../vfs/filesystem.js';
import { OverlayConflictError } from '../../vfs/overlay/commit.js';
import type { OverlayChange } from '../../vfs/overlay/overlay.js';
import type { ProcessDeps } from './deps.js';
import type { HandleState } from './handle-table.js';
import { OverlaySession } from './overlay-session.js';

/** One path the handle's commands changed in the workspace, against what it held before. */
export interface OverlayWorkspaceChange {
  /** Absolute host path inside the workspace. */
  readonly path: string;
  readonly kind: 'added' | 'modified' | 'deleted' | 'type-changed';
  /** What the path is now; null when deleted. */
  readonly type: 'file' | 'directory' | 'symlink' | 'other' | null;
  /** What it was when the overlay first saw it; null when it did not exist. */
  readonly previousType: 'file' | 'directory' | 'symlink' | 'other' | null;
}

/** Which changes a transaction call is about. */
export interface OverlaySelection {
  /** Only changes at or under these paths (absolute, or relative to the handle's cwd). Default: all. */
  readonly paths?: readonly string[] | undefined;
}

export interface OverlayCommitOptions extends OverlaySelection {
  /** Apply even over paths that changed in the workspace meanwhile (a conflict error otherwise). */
  readonly force?: boolean | undefined;
}

export interface OverlayCommitResult {
  /** The host paths written, in order. */
  readonly applied: readonly string[];
}

const SELECTION_KEYS = optionKeys<OverlaySelection>({ paths: true });
const COMMIT_KEYS = optionKeys<OverlayCommitOptions>({ paths: true, force: true });

export async function overlayChanges(session: OverlaySession): Promise<OverlayWorkspaceChange[]> {
  await session.overlay.rescan();
  return (await session.overlay.changes()).map((change) => outward(session, change));
}

export async function overlayDiff(
  session: OverlaySession,
  state: HandleState,
  options: OverlaySelection | undefined,
): Promise<string> {
  const input = knownOptions(options, 'options', SELECTION_KEYS, 'diff');
  await session.overlay.rescan();
  return session.overlay.diff({ paths: inward(session, input.paths, state.cwd) });
}

export async function overlayCommit(
  deps: ProcessDeps,
  session: OverlaySession,
  state: HandleState,
  options: OverlayCommitOptions | undefined,
): Promise<OverlayCommitResult> {
  const input = knownOptions(options, 'options', COMMIT_KEYS, 'commit');
  if (input.force !== undefined && typeof input.force !== 'boolean') {
    throw new InvalidArgumentError('options.force', `must be a boolean, got ${describeValue(input.force)}`);
  }
  const paths = inward(session, input.paths, state.cwd);
  assertStopped(deps, state, 'commit');
  return session.whileUnmounted(async () => {
    await session.overlay.rescan();
    try {
      const result = await session.overlay.commit({ paths, force: input.force === true });
      return { applied: result.applied.map((path) => hostPath(session, path)) };
    } catch (error) {
      if (error instanceof OverlayConflictError) {
        throw new OverlayConflictError(error.paths.map((path) => hostPath(session, path)));
      }
      throw error;
    }
  });
}

export async function overlayDiscard(
  deps: ProcessDeps,
  session: OverlaySession,
  state: HandleState,
  options: OverlaySelection | undefined,
): Promise<void> {
  const input = knownOptions(options, 'options', SELECTION_KEYS, 'discard');
  const paths = inward(session, input.paths, state.cwd);
  assertStopped(deps, state, 'discard');
  await session.whileUnmounted(async () => {
    await session.overlay.rescan();
    await session.overlay.discard({ paths });
  });
}

/** A new session over the same workspace whose changes start as a copy of `session`'s. */
export async function overlayFork(session: OverlaySession, stateRoot: string): Promise<OverlaySession> {
  await session.overlay.rescan();
  const directory = newStateDirectory(stateRoot);
  await session.overlay.fork({ upper: { directory } });
  return OverlaySession.open(session.workspace, directory);
}

/** A fresh state directory for one handle under the context's `stateDir`. */
export function newStateDirectory(stateRoot: string): string {
  return mkdtempSync(join(stateRoot, 'handle-'));
}

function assertStopped(deps: ProcessDeps, state: HandleState, what: string): void {
  const running = deps.registry.list(state.id).filter((task) => task.status === 'running');
  if (state.live.size > 0 || running.length > 0) {
    throw new InvalidArgumentError(
      'handle',
      `${what} needs the handle's commands to have stopped (the overlay is unmounted to apply it): ${state.live.size} exec, stream or terminal and ${running.length} background task(s) still run; wait for them or kill them first`,
    );
  }
}

function hostPath(session: OverlaySession, path: string): string {
  return path === '/' ? session.workspace : `${session.workspace}${path}`;
}

function outward(session: OverlaySession, change: OverlayChange): OverlayWorkspaceChange {
  return {
    path: hostPath(session, change.path),
    kind: change.kind,
    type: change.type === null ? null : entryType(change.type),
    previousType: change.lowerType === null ? null : entryType(change.lowerType),
  };
}

/** Host paths (absolute, or relative to `cwd`) as overlay paths; undefined is all. */
function inward(session: OverlaySession, paths: unknown, cwd: string): string[] | undefined {
  if (paths === undefined) return undefined;
  if (!Array.isArray(paths)) {
    throw new InvalidArgumentError('options.paths', `must be an array of paths, got ${describeValue(paths)}`);
  }
  return paths.map((path: unknown, index) => {
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
      throw new InvalidArgumentError(`options.paths[${index}]`, `must be a path, got ${describeValue(path)}`);
    }
    const absolute = join(path.startsWith('/') ? '/' : cwd, path);
    if (!isInsideOrEqual(session.workspace, absolute)) {
      throw new InvalidArgumentError(
        `options.paths[${index}]`,
        `${JSON.stringify(path)} is outside the workspace ${session.workspace}, which is all that has changes`,
      );
    }
    return absolute === session.workspace ? '/' : absolute.slice(session.workspace.length);
  });
}

function entryType(type: VfsFileType): NonNullable<OverlayWorkspaceChange['type']> {
  return type === 'file' || type === 'directory' || type === 'symlink' ? type : 'other';
}
