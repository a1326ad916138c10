/**
 * A handle's kernel overlay: the workspace as the lower layer, the handle's state directory (the
 * VFS overlay's on-disk format: `upper/`, `work/`, `overlay.json`, `origins.jsonl`) as the upper,
 * mounted over the workspace path inside a private mount namespace. The host's own view of the
 * workspace never changes; commands enter the namespace (`nsenter`) before bubblewrap starts, so
 * they see, and write, the merged view at the workspace's own path.
 *
 * The namespace is made and held by a small holder process (`unshare -m` as root; `unshare -Urm`
 * with the `userxattr` mount option otherwise, since bubblewrap 0.8 has no `--overlay`): it mounts
 * the overlay, says `ready`, and waits on its stdin, a pipe from this process, so it ends with the
 * handle or with berth's host process, whichever goes first. Transactions go through the VFS
 * overlay over the same state directory ({@link OverlaySession.overlay}), read again (`rescan`)
 * before each look, and applied only with the namespace torn down and mounted anew afterwards:
 * the kernel forbids changing an overlay's layers while it is mounted.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { SandboxUnavailableError } from '../../errors/index.js';
import { findExecutable } from '../../sandbox/find-executable.js';
import { createContainedFilesystem } from '../../vfs/contained-fs.js';
import { toKernelLayout } from '../../vfs/overlay/kernel-layout.js';
import { createOverlay, type Overlay } from '../../vfs/overlay/overlay.js';
import { endHolder, holderRunning, startHolder } from './holder-process.js';

const READY = 'berth-overlay-ready';
// The mount options travel as arguments, never inside the script: paths with commas or colons
// are refused up front (the kernel's option syntax has no escaping for them).
const HOLDER_SCRIPT = `mount -t overlay berth-overlay -o "lowerdir=$1,upperdir=$2,workdir=$3$4" "$1" && echo ${READY} && read _`;

/** Why an overlay cannot be had here, and what to do. */
export class OverlayUnavailableError extends SandboxUnavailableError {
  constructor(reason: string, fix: string) {
    super(`the workspace overlay cannot be mounted: ${reason}`, fix);
  }
}

/** One handle's mounted overlay. */
export class OverlaySession {
  private holder: ChildProcess | undefined;
  /** True while commit or discard has the overlay unmounted. */
  private applying = false;

  private constructor(
    /** The workspace (the lower layer), an absolute real path. */
    readonly workspace: string,
    /** The handle's state directory. */
    readonly stateDir: string,
    /** Transactions over the same state directory. */
    readonly overlay: Overlay,
    private readonly unprivileged: boolean,
  ) {}

  /** Open (or continue) the state directory and mount it. */
  static async open(workspace: string, stateDir: string): Promise<OverlaySession> {
    for (const [label, path] of [
      ['workspace', workspace],
      ['state directory', stateDir],
    ] as const) {
      if (/[,:\n]/.test(path)) {
        throw new OverlayUnavailableError(
          `the ${label} ${JSON.stringify(path)} holds a comma, colon or newline, which overlay mount options cannot carry`,
          'use paths without them',
        );
      }
    }
    const overlay = await createOverlay({
      lower: createContainedFilesystem({ root: workspace }),
      upper: { directory: stateDir },
    });
    const session = new OverlaySession(workspace, stateDir, overlay, process.getuid?.() !== 0);
    await session.mount();
    return session;
  }

  /** The argv prefix that runs a program inside the overlay's mount namespace. */
  enterPrefix(): string[] {
    if (this.applying) {
      throw new SandboxUnavailableError(
        'a commit or discard of the workspace overlay is in progress (it is unmounted meanwhile)',
        'run the command once that call has settled',
      );
    }
    const pid = this.holder?.pid;
    if (!holderRunning(this.holder) || pid === undefined) {
      throw new SandboxUnavailableError(
        "the workspace overlay's namespace is gone (its holder process ended)",
        'destroy this handle and spawn a new one',
      );
    }
    const nsenter = findExecutable('nsenter', process.env.PATH) ?? 'nsenter';
    return this.unprivileged
      ? [
          nsenter,
          '--preserve-credentials',
          `--user=/proc/${pid}/ns/user`,
          `--mount=/proc/${pid}/ns/mnt`,
          '--',
        ]
      : [nsenter, `--mount=/proc/${pid}/ns/mnt`, '--'];
  }

  /**
   * Identity arguments for bubblewrap inside an unprivileged namespace: `nsenter` makes the command
   * uid 0 there, and bubblewrap maps it back to the host user's ids.
   */
  bwrapIdentity(): string[] {
    if (!this.unprivileged) return [];
    return ['--uid', String(process.getuid?.() ?? 0), '--gid', String(process.getgid?.() ?? 0)];
  }

  /** Run `body` with the overlay unmounted (nothing may run in it), then mount it again. */
  async whileUnmounted<T>(body: () => Promise<T>): Promise<T> {
    this.applying = true;
    try {
      await this.unmount();
      try {
        return await body();
      } finally {
        await this.mount();
      }
    } finally {
      this.applying = false;
    }
  }

  /** End the holder; the namespace, and with it the mount, goes once nothing runs in it. */
  async unmount(): Promise<void> {
    const holder = this.holder;
    this.holder = undefined;
    await endHolder(holder, 2000);
  }

  private async mount(): Promise<void> {
    const upper = `${this.stateDir}/upper`;
    const work = `${this.stateDir}/work`;
    // Markers berth wrote (whiteouts, opaque directories) become what the kernel reads.
    await toKernelLayout(upper, { xattrNamespace: this.unprivileged ? 'user' : 'trusted' });
    const unshare = findExecutable('unshare', process.env.PATH);
    if (unshare === null || findExecutable('nsenter', process.env.PATH) === null) {
      throw new OverlayUnavailableError(
        'unshare or nsenter (util-linux) is not on PATH',
        'install util-linux, or create the context without the overlay option',
      );
    }
    const flags = this.unprivileged ? ['-Urm'] : ['-m', '--propagation', 'private'];
    const extra = this.unprivileged ? ',userxattr' : '';
    const started = await startHolder(
      [
        unshare,
        ...flags,
        '/bin/sh',
        '-c',
        HOLDER_SCRIPT,
        'berth-overlay',
        this.workspace,
        upper,
        work,
        extra,
      ],
      { ready: READY },
    );
    if (!started.ok) {
      throw new OverlayUnavailableError(
        `${started.why} (lowerdir ${this.workspace}, upperdir ${upper})`,
        this.unprivileged
          ? 'unprivileged overlays need user namespaces (kernel.unprivileged_userns_clone=1), Linux 5.11 or later and a state directory on a filesystem with user xattrs (not tmpfs before Linux 6.6, not an overlay); or run as root, or create the context without the overlay option'
          : 'put the state directory on a filesystem with xattrs that is not itself an overlay (a container root is one), or create the context without the overlay option',
      );
    }
    this.holder = started.child;
  }
}
