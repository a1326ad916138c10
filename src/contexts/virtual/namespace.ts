/**
 * The virtual namespace a handle's commands and file methods see: one mount table over
 *
 * - `/`: a memory filesystem of scratch space (`/tmp`, the home directory, seeded files);
 * - the workspace (default `/workspace`): a copy-on-write overlay over a contained view of a host
 *   directory, or over seeded memory; its changes are what `changes`/`diff`/`commit` work on;
 * - `/dev`: null, zero, full, random, urandom;
 * - the caller's own mounts;
 * - the context's private host directory (spill files, background logs), read-only, at its host
 *   path.
 *
 * Handles share one namespace; a forked handle gets its own, whose scratch and workspace start as
 * copy-on-write copies of its parent's.
 * @module
 */
import { dirname } from 'node:path';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ExternalCommands } from '../../kernel/external.js';
import { createContainedFilesystem } from '../../vfs/contained-fs.js';
import { createDevFilesystem } from '../../vfs/dev-fs.js';
import { type Filesystem, isVfsError } from '../../vfs/filesystem.js';
import {
  createMemoryFilesystem,
  type MemoryFilesystem,
  type MemorySeed,
} from '../../vfs/memory/memory-fs.js';
import { createMountTable, type MountTable } from '../../vfs/mount-table.js';
import { createOverlay, type Overlay } from '../../vfs/overlay/overlay.js';
import type { VirtualContextConfig } from './options.js';
import { SharedOverlay } from './shared-overlay.js';

export class Namespace {
  /** What commands and file methods see. */
  readonly fs: MountTable;
  private privateMount: { readonly dir: string; readonly fs: Filesystem } | undefined;

  /** The external gate every kernel of the namespace gets (synced with a shared overlay). */
  readonly external: ExternalCommands | undefined;

  private constructor(
    private readonly config: VirtualContextConfig,
    /** The memory filesystem at `/`. */
    readonly scratch: MemoryFilesystem,
    /** The workspace overlay, mounted at `config.workspacePath`. */
    readonly workspace: Overlay,
    private readonly dev: Filesystem,
    /** The kernel overlay the workspace shares with a process handle (`external.shareOverlay`). */
    readonly shared: SharedOverlay | undefined = undefined,
  ) {
    this.external =
      shared === undefined || config.external === undefined
        ? config.external
        : shared.gate(config.external, config.workspacePath);
    this.fs = createMountTable({
      mounts: [
        { path: '/', fs: scratch },
        { path: config.workspacePath, fs: workspace },
        { path: '/dev', fs: dev },
        ...config.mounts.map((m) => ({ path: m.path, fs: m.fs, readOnly: m.readOnly })),
      ],
    });
  }

  /** The first namespace of a context: seeds the scratch space, opens the workspace overlay. */
  static async create(config: VirtualContextConfig): Promise<Namespace> {
    const budget = config.budget;
    // What the user makes is the user's; /tmp is root's, world-writable and sticky, as on Linux.
    const owner = { uid: config.identity.uid, gid: config.identity.gid };
    const scratchSeed = new Map<string, MemorySeed>([
      ['/tmp', { type: 'directory', mode: 0o1777, uid: 0, gid: 0 }],
      [config.identity.home, { type: 'directory', mode: 0o755 }],
    ]);
    for (const [path, seed] of config.scratchFiles) scratchSeed.set(path, seed);
    const scratch = seeded(
      () => createMemoryFilesystem({ files: scratchSeed, budget, ...owner }),
      'options.files',
    );
    const lower: Filesystem =
      config.root === undefined
        ? seeded(
            () => createMemoryFilesystem({ files: config.workspaceFiles, budget, ...owner }),
            'options.files',
          )
        : createContainedFilesystem({ root: config.root, owner });
    for (const mountPoint of [config.workspacePath, ...config.mounts.map((m) => m.path)]) {
      await scratch.mkdir(mountPoint, { recursive: true, mode: 0o755 }).catch(ignoreExisting);
    }
    const workspace = await createOverlay({
      lower,
      budget,
      ...owner,
      upper: config.stateDirectory === undefined ? 'memory' : { directory: config.stateDirectory },
    });
    const shared =
      config.sharedOverlay === undefined
        ? undefined
        : new SharedOverlay(workspace, config.sharedOverlay.link);
    return new Namespace(config, scratch, workspace, createDevFilesystem(), shared);
  }

  /** An independent namespace starting from this one's state: O(scratch inodes + workspace changes). */
  async fork(): Promise<Namespace> {
    if (this.shared !== undefined) {
      throw new InvalidArgumentError(
        'handle',
        "cannot be forked while its workspace shares a process handle's overlay (external.shareOverlay): a fork's changes would not be the ones its external commands see; fork the process handle, or use a second virtual context",
      );
    }
    const forked = new Namespace(
      this.config,
      this.scratch.clone({ budget: this.config.budget }),
      await this.workspace.fork(),
      this.dev,
    );
    if (this.privateMount !== undefined)
      await forked.mountPrivate(this.privateMount.dir, this.privateMount.fs);
    return forked;
  }

  /**
   * Mount the context's private host directory (`fs`, a contained view of `hostDir`) read-only at
   * its own host path. Idempotent.
   */
  async mountPrivate(hostDir: string, fs: Filesystem): Promise<void> {
    if (this.privateMount !== undefined) return;
    this.privateMount = { dir: hostDir, fs };
    await this.scratch.mkdir(dirname(hostDir), { recursive: true, mode: 0o755 }).catch(ignoreExisting);
    await this.scratch.mkdir(hostDir, { mode: 0o700 }).catch(ignoreExisting);
    this.fs.mount(hostDir, fs, { readOnly: true });
  }

  /** The workspace's path in the namespace. */
  get workspacePath(): string {
    return this.config.workspacePath;
  }
}

function ignoreExisting(error: unknown): void {
  if (!isVfsError(error, 'EEXIST')) throw error;
}

/** Build a seeded filesystem; a seed that does not fit the budget is the caller's mistake. */
function seeded<T>(build: () => T, field: string): T {
  try {
    return build();
  } catch (error) {
    if (isVfsError(error, 'ENOSPC')) {
      throw new InvalidArgumentError(
        field,
        `the seeded files do not fit the byte budget (${error.message}); raise options.budget or seed less`,
      );
    }
    if (isVfsError(error)) throw new InvalidArgumentError(field, `cannot be seeded: ${error.message}`);
    throw error;
  }
}
