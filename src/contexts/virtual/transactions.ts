/**
 * The workspace's transactions in the namespace's terms: paths in and out are namespace paths
 * (`/workspace/src/a.ts`), the overlay's own are workspace-relative (`/src/a.ts`); the diff is
 * git-style, relative to the workspace root (so `git apply` takes it); a conflict names every
 * path and writes nothing; a commit stopped part way says which paths it applied.
 * @module
 */
import type {
  ChangeSelection,
  CommitChangesOptions,
  CommitChangesResult,
  WorkspaceChange,
} from '../../contract/types.js';
import { booleanOption, describeValue } from '../../contract/validate-options.js';
import { BerthError, ConflictError, InvalidArgumentError } from '../../errors/index.js';
import type { VfsFileType } from '../../vfs/filesystem.js';
import { OverlayCommitError, OverlayConflictError } from '../../vfs/overlay/commit.js';
import type { Overlay, OverlayChange } from '../../vfs/overlay/overlay.js';
import { isVfsPathWithin, normalizeVfsPath } from '../../vfs/vfs-path.js';
import type { SharedOverlay } from './shared-overlay.js';

/** One workspace overlay seen from the namespace. */
export class Workspace {
  constructor(
    readonly overlay: Overlay,
    /** Where the overlay is mounted in the namespace. */
    readonly mountPath: string,
    /** The process handle's kernel overlay the workspace shares, if it does. */
    private readonly shared: SharedOverlay | undefined = undefined,
  ) {}

  async changes(): Promise<WorkspaceChange[]> {
    await this.shared?.look();
    return (await this.overlay.changes()).map((change) => this.outward(change));
  }

  async diff(selection: ChangeSelection | undefined, cwd: string): Promise<string> {
    const paths = this.inward(selection?.paths, cwd);
    await this.shared?.look();
    return this.overlay.diff({ paths });
  }

  async commit(options: CommitChangesOptions | undefined, cwd: string): Promise<CommitChangesResult> {
    const force = booleanOption(options?.force, 'options.force', false);
    try {
      const paths = this.inward(options?.paths, cwd);
      const commit = () => this.overlay.commit({ paths, force });
      const result = await (this.shared === undefined ? commit() : this.shared.apply('commit', commit));
      return { applied: result.applied.map((path) => this.namespacePath(path)) };
    } catch (error) {
      if (error instanceof OverlayConflictError) {
        throw new ConflictError(
          error.paths.map((path) => this.namespacePath(path)),
          { cause: error },
        );
      }
      if (error instanceof OverlayCommitError) throw new CommitStoppedError(this, error);
      throw error;
    }
  }

  async discard(selection: ChangeSelection | undefined, cwd: string): Promise<void> {
    const paths = this.inward(selection?.paths, cwd);
    const discard = () => this.overlay.discard({ paths });
    await (this.shared === undefined ? discard() : this.shared.apply('discard', discard));
  }

  /** The namespace path of a workspace path. */
  namespacePath(path: string): string {
    return path === '/' ? this.mountPath : `${this.mountPath}${path}`;
  }

  private outward(change: OverlayChange): WorkspaceChange {
    return {
      path: this.namespacePath(change.path),
      kind: change.kind,
      type: change.type === null ? null : entryType(change.type),
      previousType: change.lowerType === null ? null : entryType(change.lowerType),
    };
  }

  /** Namespace paths (absolute, or relative to `cwd`) as workspace paths; undefined is all. */
  private inward(paths: unknown, cwd: string): string[] | undefined {
    if (paths === undefined) return undefined;
    if (!Array.isArray(paths)) {
      throw new InvalidArgumentError(
        'options.paths',
        `must be an array of paths, got ${describeValue(paths)}`,
      );
    }
    return paths.map((path: unknown, index) => {
      if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
        throw new InvalidArgumentError(
          `options.paths[${index}]`,
          `must be a path, got ${describeValue(path)}`,
        );
      }
      const absolute = normalizeVfsPath(path, cwd);
      if (!isVfsPathWithin(this.mountPath, absolute)) {
        throw new InvalidArgumentError(
          `options.paths[${index}]`,
          `${JSON.stringify(path)} is outside the workspace ${this.mountPath}, which is all that has changes`,
        );
      }
      return absolute === this.mountPath ? '/' : absolute.slice(this.mountPath.length);
    });
  }
}

/** A commit stopped part way (disk full, say): `applied` were written, every other path was not. */
export class CommitStoppedError extends BerthError {
  readonly applied: readonly string[];
  readonly failedPath: string;
  constructor(workspace: Workspace, error: OverlayCommitError) {
    const applied = error.applied.map((path) => workspace.namespacePath(path));
    const failedPath = workspace.namespacePath(error.failedPath);
    const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
    super(
      'E_IO',
      `commit stopped at ${failedPath} (${cause}); written: ${applied.length === 0 ? 'nothing' : applied.join(', ')}; every other change is still pending, none is torn; fix the cause and commit again`,
      { cause: error },
    );
    this.applied = applied;
    this.failedPath = failedPath;
  }
}

function entryType(type: VfsFileType): NonNullable<WorkspaceChange['type']> {
  return type === 'file' || type === 'directory' || type === 'symlink' ? type : 'other';
}
