/**
 * The external gate's `shareOverlay`: the virtual workspace keeps its changes in the state
 * directory of a process handle's kernel overlay, and the gate's commands run in that overlay, so
 * the virtual shell and the real tools it calls (`git`, `npm`, a build) see one set of changes,
 * which `changes`, `diff`, `commit` and `discard` of either context review.
 *
 * The two sides write the same upper directory in turn. A kernel overlay must not have its layers
 * changed while mounted, and berth writes whiteouts and opaque markers as plain files that only a
 * fresh mount (after `toKernelLayout`) reads as such. So, before an external command, the overlay
 * is mounted afresh when this side changed the upper's structure since the last mount (content
 * written into an existing upper file is seen through the mount as it happens); after it, the
 * virtual overlay reads the upper again (what the command made, in the kernel's form).
 * @module
 */
import type { ExecStream, ExecutionContext } from '../../contract/types.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ExternalCommands } from '../../kernel/external.js';
import type { Overlay } from '../../vfs/overlay/overlay.js';
import { borrowOverlay, type WorkspaceOverlayLink } from '../shared/overlay-link.js';

/** What `external.shareOverlay` resolves to. */
export interface SharedOverlayConfig {
  readonly link: WorkspaceOverlayLink;
}

/**
 * Check `external.shareOverlay` against the context's own options: the handle must be a process
 * handle with a workspace overlay over `root`, and the state directory is the handle's.
 */
export function resolveSharedOverlay(
  external: ExternalCommands | undefined,
  root: string | undefined,
  stateDirectory: string | undefined,
): SharedOverlayConfig | undefined {
  const share = external?.shareOverlay;
  if (share === undefined || share === false) return undefined;
  if (share !== true) {
    throw new InvalidArgumentError('options.external.shareOverlay', 'must be a boolean');
  }
  const link = borrowOverlay(external!.context, external!.handle);
  if (link === undefined) {
    throw new InvalidArgumentError(
      'options.external.shareOverlay',
      'needs external.handle to be a live handle of a process context created with the overlay option (createProcessContext({ workspaceRoot, sandbox, overlay: { stateDir } }))',
    );
  }
  if (root !== link.workspace) {
    throw new InvalidArgumentError(
      'options.root',
      `must be the workspace the shared overlay covers, ${JSON.stringify(link.workspace)}${root === undefined ? '' : `, not ${JSON.stringify(root)}`}`,
    );
  }
  if (stateDirectory !== undefined) {
    throw new InvalidArgumentError(
      'options.stateDirectory',
      "must be left out with external.shareOverlay: the changes live in the process handle's state directory",
    );
  }
  return { link };
}

/** The sync between the virtual overlay and the kernel mount of the same state directory. */
export class SharedOverlay {
  /** The upper's generation the mount last saw; undefined: changed while a command ran. */
  private synced: string | undefined;
  private running = 0;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly overlay: Overlay,
    readonly link: WorkspaceOverlayLink,
  ) {
    this.synced = overlay.upperGeneration;
  }

  /**
   * The gate's spec, with its context's `exec` and `execStream` entering and leaving the overlay
   * around each command, and working directories in the workspace mapped onto the host.
   */
  gate(spec: ExternalCommands, workspacePath: string): ExternalCommands {
    const context = spec.context;
    // Only exec and execStream are called on the gate's context; the rest is the original's.
    const synced: ExecutionContext = Object.create(context, {
      exec: {
        value: async (...args: Parameters<ExecutionContext['exec']>) => {
          await this.enter();
          try {
            return await context.exec(...args);
          } finally {
            await this.leave();
          }
        },
      },
      ...(context.execStream === undefined
        ? {}
        : {
            execStream: {
              value: async (
                ...args: Parameters<NonNullable<ExecutionContext['execStream']>>
              ): Promise<ExecStream> => {
                await this.enter();
                let stream: ExecStream;
                try {
                  stream = await context.execStream!(...args);
                } catch (error) {
                  await this.leave();
                  throw error;
                }
                const exited = stream.exited.finally(() => this.leave());
                return {
                  stdin: stream.stdin,
                  stdout: stream.stdout,
                  stderr: stream.stderr,
                  exited,
                  kill: () => stream.kill(),
                };
              },
            },
          }),
    });
    const workspace = this.link.workspace;
    return {
      ...spec,
      context: synced,
      mapCwd:
        spec.mapCwd ??
        ((cwd) => {
          if (cwd === workspacePath) return workspace;
          return cwd.startsWith(`${workspacePath}/`)
            ? `${workspace}${cwd.slice(workspacePath.length)}`
            : undefined;
        }),
    };
  }

  /** Read the upper again before a look (`changes`, `diff`): the process handle may have changed it. */
  look(): Promise<void> {
    return this.inTurn(async () => {
      await this.rescan();
    });
  }

  /**
   * Apply a commit or discard: refused while an external command runs; with the overlay unmounted,
   * after reading the upper again; the mount made afterwards sees the result.
   */
  apply<T>(what: string, body: () => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      if (this.running > 0) {
        throw new InvalidArgumentError(
          'handle',
          `${what} needs the external commands in the shared overlay to have stopped (${this.running} still run)`,
        );
      }
      const result = await this.link.whileUnmounted(what, async () => {
        await this.overlay.rescan();
        return body();
      });
      this.synced = this.overlay.upperGeneration;
      return result;
    });
  }

  private enter(): Promise<void> {
    return this.inTurn(async () => {
      // While something runs in the mount, a fresh one cannot be had: the command then sees the
      // structure of the last mount (docs/contexts.md says so).
      if (this.running === 0 && this.overlay.upperGeneration !== this.synced && (await this.link.settled())) {
        await this.link.whileUnmounted('mounting the shared overlay afresh', async () => {});
        this.synced = this.overlay.upperGeneration;
      }
      this.running++;
    });
  }

  private leave(): Promise<void> {
    return this.inTurn(async () => {
      this.running--;
      await this.rescan();
    });
  }

  /** Read the upper again, keeping in mind whether this side changed it since the last mount. */
  private async rescan(): Promise<void> {
    const dirty = this.overlay.upperGeneration !== this.synced;
    await this.overlay.rescan();
    this.synced = dirty ? undefined : this.overlay.upperGeneration;
  }

  /** One step at a time: the mount, the counter and the rescans change together. */
  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const next = this.turn.then(step);
    this.turn = next.catch(() => undefined);
    return next;
  }
}
