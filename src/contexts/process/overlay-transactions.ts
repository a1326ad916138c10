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
import { CHANGE_SELECTION_KEYS, COMMIT_OPTION_KEYS } from '../../contract/option-keys.js';
import type {
  ChangeSelection,
  CommitChangesOptions,
  CommitChangesResult,
  WorkspaceChange,
} from '../../contract/types.js';
import { booleanOption, describeValue, knownOptions } from '../../contract/validate-options.js';
import { ConflictError, InvalidArgumentError } from '../../errors/index.js';
import type { VfsFileType } from '../../vfs/filesystem.js';
import { OverlayConflictError } from '../../vfs/overlay/commit.js';
import type { OverlayChange } from '../../vfs/overlay/overlay.js';
import { isWithin } from '../../vfs/path-scope.js';
import type { WorkspaceOverlayLink } from '../shared/overlay-link.js';
import type { ProcessDeps } from './deps.js';
import type { HandleState } from './handle-state.js';
import { OverlaySession } from './overlay-session.js';

export async function overlayChanges(session: OverlaySession): Promise<WorkspaceChange[]> {
  await session.overlay.rescan();
  return (await session.overlay.changes()).map((change) => outward(session, change));
}

export async function overlayDiff(
  session: OverlaySession,
  state: HandleState,
  options: ChangeSelection | undefined,
): Promise<string> {
  const input = knownOptions(options, 'options', CHANGE_SELECTION_KEYS, 'diff');
  await session.overlay.rescan();
  return session.overlay.diff({ paths: inward(session, input.paths, state.cwd) });
}

export async function overlayCommit(
  deps: ProcessDeps,
  session: OverlaySession,
  state: HandleState,
  options: CommitChangesOptions | undefined,
): Promise<CommitChangesResult> {
  const input = knownOptions(options, 'options', COMMIT_OPTION_KEYS, 'commit');
  const force = booleanOption(input.force, 'options.force', false);
  const paths = inward(session, input.paths, state.cwd);
  await assertStopped(deps, state, 'commit');
  return session.whileUnmounted(async () => {
    await session.overlay.rescan();
    try {
      const result = await session.overlay.commit({ paths, force });
      return { applied: result.applied.map((path) => hostPath(session, path)) };
    } catch (error) {
      if (error instanceof OverlayConflictError) {
        throw new ConflictError(
          error.paths.map((path) => hostPath(session, path)),
          { cause: error },
        );
      }
      throw error;
    }
  });
}

export async function overlayDiscard(
  deps: ProcessDeps,
  session: OverlaySession,
  state: HandleState,
  options: ChangeSelection | undefined,
): Promise<void> {
  const input = knownOptions(options, 'options', CHANGE_SELECTION_KEYS, 'discard');
  const paths = inward(session, input.paths, state.cwd);
  await assertStopped(deps, state, 'discard');
  await session.whileUnmounted(async () => {
    await session.overlay.rescan();
    await session.overlay.discard({ paths });
  });
}

/** The handle's overlay as another context may use it (the virtual shell's shared overlay). */
export function overlayLink(
  deps: ProcessDeps,
  session: OverlaySession,
  state: HandleState,
): WorkspaceOverlayLink {
  return {
    workspace: session.workspace,
    stateDirectory: session.stateDir,
    settled: async () => {
      await Promise.all([...state.live].filter((work) => work.leftover).map((work) => work.end()));
      return state.live.size === 0 && !deps.registry.list(state.id).some((task) => task.status === 'running');
    },
    whileUnmounted: async (what, body) => {
      await assertStopped(deps, state, what);
      return session.whileUnmounted(body);
    },
  };
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

/**
 * Refuse while the handle runs anything; first wait for what finished commands left behind (it is
 * already being ended, within the kill grace), since it may still write to the overlay.
 */
async function assertStopped(deps: ProcessDeps, state: HandleState, what: string): Promise<void> {
  await Promise.all([...state.live].filter((work) => work.leftover).map((work) => work.end()));
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

function outward(session: OverlaySession, change: OverlayChange): WorkspaceChange {
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
    if (!isWithin(session.workspace, absolute)) {
      throw new InvalidArgumentError(
        `options.paths[${index}]`,
        `${JSON.stringify(path)} is outside the workspace ${session.workspace}, which is all that has changes`,
      );
    }
    return absolute === session.workspace ? '/' : absolute.slice(session.workspace.length);
  });
}

function entryType(type: VfsFileType): NonNullable<WorkspaceChange['type']> {
  return type === 'file' || type === 'directory' || type === 'symlink' ? type : 'other';
}
