/**
 * The live handle of one locally spawned process tree: stdio wired by disposition, collected
 * streams, exit facts, and tree-scoped termination and waiting.
 * @module
 */
import { type ChildProcess, type StdioOptions, spawn as spawnChild } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { registerTreeForExit, unregisterTreeForExit } from './exit-finalizer.js';
import { OutputCollector } from './output-collector.js';
import { ProcessTree } from './process-tree.js';
import { locateExecutableSync } from './resolve-executable.js';
import { childEnv } from './scrubbed-env.js';
import type { StdioLayout } from './spare-supervisors.js';
import { checkCwd, spawnErrorFrom, supervisorSetupError } from './spawn-failure.js';
import { watchSupervisedEnd } from './supervised-end.js';
import {
  STATUS_FD,
  SUPERVISOR_SETUP_FAILED,
  type SupervisorStatus,
  supervisorRequest,
} from './supervisor.js';
import { killTreeNow, terminateTree, waitForTreeGone } from './terminate-tree.js';
import { unwatchTree, watchTree } from './tree-watch.js';
import type {
  SubprocessCollectedOutputs,
  SubprocessHandle,
  SubprocessOutcome,
  SubprocessOutputMode,
  SubprocessSpawnSpec,
} from './types.js';

/** What the owning runtime provides to each handle. */
export interface HandleOwner {
  /**
   * A started supervisor (`supervisor` is its path) waiting for its command's request, with
   * `layout` as the command's stdio: a warm spare when one is ready.
   */
  startSupervisor(supervisor: string, layout: StdioLayout): ChildProcess;
  /** The runtime's private spill directory (created on first use). */
  spillDir(): string;
  /**
   * The checked path of the per-command supervisor, or `undefined` when commands run without one.
   * @throws SupervisorUnavailableError when supervision is on but the supervisor cannot run.
   */
  supervisor(): string | undefined;
  /** The tree may still have live processes: track it for disposal. */
  treeLive(handle: LocalProcessHandle): void;
  /** No process of the tree remains. */
  treeGone(handle: LocalProcessHandle): void;
}

const LIVENESS_POLL_MS = 1000;

function stdioFor(mode: SubprocessOutputMode): 'pipe' | 'inherit' | 'ignore' {
  return typeof mode === 'object' ? 'pipe' : mode;
}

/** Swallow EPIPE on a child's stdin (the child may exit before reading); rethrow other unhandled errors. */
function tolerateEpipe(stream: Writable): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
    if (stream.listenerCount('error') === 1) throw error;
  });
}

/** A locally spawned process tree. Create through `LocalSubprocessRuntime.spawn`. */
export class LocalProcessHandle implements SubprocessHandle {
  readonly pid: number;
  readonly stdin: Writable | undefined;
  readonly stdout: Readable | undefined;
  readonly stderr: Readable | undefined;
  readonly collected: SubprocessCollectedOutputs;
  readonly done: Promise<SubprocessOutcome>;
  private readonly owner: HandleOwner;
  private readonly graceMs: number;
  private readonly tree: ProcessTree | undefined;
  private readonly collectors: OutputCollector[] = [];
  private readonly rootExited: Promise<void>;
  private terminating: Promise<void> | undefined;
  private gone = false;
  /** The supervisor reported nothing left below it: it is exiting on its own, nothing to end. */
  private emptied = false;
  private livenessTimer: NodeJS.Timeout | undefined;
  private abortCleanup: (() => void) | undefined;

  /**
   * Spawns at once; the spec must already be validated.
   * @throws SupervisorUnavailableError when supervision is on but the supervisor cannot run.
   */
  constructor(spec: SubprocessSpawnSpec, owner: HandleOwner) {
    this.owner = owner;
    this.graceMs = spec.graceMs;
    const supervisor = owner.supervisor();
    const command = spec.argv[0]!;
    const collectorFor = (mode: SubprocessOutputMode, label: 'stdout' | 'stderr') => {
      if (typeof mode !== 'object') return undefined;
      const collector = new OutputCollector(mode, {
        spillDir: mode.spill ? owner.spillDir() : '',
        label,
        field: `stdio.${label}`,
      });
      this.collectors.push(collector);
      return collector;
    };
    const outCollector = collectorFor(spec.stdio.stdout, 'stdout');
    const errCollector = collectorFor(spec.stdio.stderr, 'stderr');
    this.collected = { stdout: outCollector, stderr: errCollector };

    const cwdError = checkCwd(spec.cwd, command);
    let child: ChildProcess | undefined;
    let immediateError: unknown;
    if (!cwdError) {
      const stdin = spec.stdio.stdin;
      const layout: StdioLayout = [
        stdin === 'ignore' ? 'ignore' : 'pipe',
        stdioFor(spec.stdio.stdout),
        stdioFor(spec.stdio.stderr),
      ];
      const env = childEnv(spec.env);
      // A shell trusts PWD when it names the real cwd; the parent's PWD would be a lie here.
      if (!(spec.env && 'PWD' in spec.env)) env.PWD = spec.cwd;
      try {
        // detached: the child calls setsid(), so it leads a new session and process group.
        if (supervisor === undefined) {
          const stdio: StdioOptions = [...layout];
          child = spawnChild(command, spec.argv.slice(1), { cwd: spec.cwd, env, stdio, detached: true });
        } else {
          // Found here as execvp would, so a missing program fails at once with pid -1, as a
          // direct spawn does, rather than inside the supervisor.
          const located = locateExecutableSync(command, env.PATH);
          if ('errno' in located) {
            immediateError = Object.assign(new Error(`spawn ${command} ${located.errno}`), {
              code: located.errno,
            });
          } else {
            // The supervisor (its status pipe on STATUS_FD, which the command never sees) has its
            // command's process forked already; the request says what that process runs.
            child = owner.startSupervisor(supervisor, layout);
            const request = child.stdio[STATUS_FD] as Writable | null;
            request?.end(supervisorRequest(spec.cwd, located.path, spec.argv, env));
          }
        }
      } catch (error) {
        immediateError = error;
      }
    }

    if (!child || child.pid === undefined) {
      this.pid = -1;
      this.stdin = undefined;
      this.stdout = undefined;
      this.stderr = undefined;
      this.tree = undefined;
      this.gone = true;
      this.rootExited = Promise.resolve();
      for (const collector of this.collectors) void collector.end();
      this.done = new Promise<SubprocessOutcome>((_, reject) => {
        const fail = (error: unknown) => reject(cwdError ?? spawnErrorFrom(error, command, spec.cwd));
        if (cwdError || immediateError !== undefined) fail(immediateError);
        else child!.once('error', fail);
      });
      // A caller that only checks `pid` must not crash the host with an unhandled rejection.
      this.done.catch(() => {});
      return;
    }

    const pid = child.pid;
    this.pid = pid;
    const rootRunning = () => child.exitCode === null && child.signalCode === null;
    let status: SupervisorStatus | undefined;
    // A supervisor that exited with a code (not killed) did so because nothing was left below it.
    const tree = supervisor
      ? new ProcessTree(pid, rootRunning, { emptied: () => child.exitCode !== null })
      : new ProcessTree(pid, rootRunning);
    this.tree = tree;
    this.track();
    // Watching what leaves the tree is needed only where nothing owns the tree.
    if (!supervisor) watchTree(tree);

    const stdin = spec.stdio.stdin;
    if (child.stdin) tolerateEpipe(child.stdin);
    if (typeof stdin === 'object') child.stdin!.end(stdin.data);
    this.stdin = stdin === 'pipe' ? (child.stdin ?? undefined) : undefined;
    this.stdout = spec.stdio.stdout === 'pipe' ? (child.stdout ?? undefined) : undefined;
    this.stderr = spec.stdio.stderr === 'pipe' ? (child.stderr ?? undefined) : undefined;
    // After settlement a collector is ended; a straggling chunk must not throw inside a listener.
    if (outCollector)
      child.stdout!.on('data', (chunk: Buffer) => outCollector.isEnded || outCollector.write(chunk));
    if (errCollector)
      child.stderr!.on('data', (chunk: Buffer) => errCollector.isEnded || errCollector.write(chunk));

    this.rootExited = new Promise((resolve) =>
      child.once('exit', () => {
        unwatchTree(tree);
        resolve();
      }),
    );
    this.done = new Promise<SubprocessOutcome>((resolve, reject) => {
      let settled = false;
      let ended: SubprocessOutcome | Error | undefined;
      const settle = () => {
        if (settled) return;
        settled = true;
        clearTimeout(drainTimer);
        // Collected pipes still open here are held by a surviving descendant: stop reading them.
        if (outCollector) child.stdout!.destroy();
        if (errCollector) child.stderr!.destroy();
        const outcome = ended ?? { exitCode: child.exitCode, signal: child.signalCode };
        void Promise.all(this.collectors.map((collector) => collector.end())).then(() =>
          outcome instanceof Error ? reject(outcome) : resolve(outcome),
        );
        this.afterClose(status);
      };
      let drainTimer: NodeJS.Timeout | undefined;
      const commandEnded = (outcome: SubprocessOutcome | Error) => {
        if (ended) return;
        ended = outcome;
        drainTimer = setTimeout(settle, this.graceMs);
      };
      if (!supervisor) {
        child.once('exit', () => commandEnded({ exitCode: child.exitCode, signal: child.signalCode }));
        child.once('close', settle);
        return;
      }
      // Supervised, the root (the supervisor) outlives the command as long as anything of the tree
      // runs, so its 'close' is no sign: the command's end is its status line, and the streams are
      // done when the output pipes close.
      const pipes = [child.stdout, child.stderr].filter((stream) => stream !== null);
      let openPipes = pipes.length;
      for (const stream of pipes) {
        stream.once('close', () => {
          openPipes--;
          if (openPipes !== 0) return;
          // The command's end may be readable before its supervisor gets to say it.
          if (ended || watch.probe()) settle();
        });
      }
      const supervisedEnded = (outcome: SubprocessOutcome | Error) => {
        commandEnded(outcome);
        if (openPipes === 0) settle();
      };
      const watch = watchSupervisedEnd(child, {
        status: (reported) => {
          status = reported;
          supervisedEnded(
            reported.kind === 'ended'
              ? { exitCode: reported.exitCode, signal: reported.signal }
              : spawnErrorFrom(
                  Object.assign(new Error(reported.errno), { code: reported.errno }),
                  command,
                  spec.cwd,
                ),
          );
        },
        // No status line: the supervisor could not set up, or something killed it.
        exitedSilently: () =>
          supervisedEnded(
            child.exitCode === SUPERVISOR_SETUP_FAILED
              ? supervisorSetupError(command)
              : { exitCode: child.exitCode, signal: child.signalCode },
          ),
      });
    });
    // A caller that only checks `pid` must not crash the host with an unhandled rejection.
    if (supervisor) this.done.catch(() => {});

    if (spec.signal) {
      const signal = spec.signal;
      const onAbort = () => this.terminate();
      if (signal.aborted) queueMicrotask(onAbort);
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        this.abortCleanup = () => signal.removeEventListener('abort', onAbort);
      }
    }
  }

  /** SIGTERM → `graceMs` → SIGKILL on the whole tree. Idempotent; a no-op once the tree is gone. */
  terminate(): void {
    if (this.gone || this.emptied || this.terminating || !this.tree) return;
    const tree = this.tree;
    // A tree that only looked gone at close is tracked again while its teardown runs.
    this.track();
    this.terminating = terminateTree(tree, this.graceMs).then(() => this.markGone());
  }

  /** SIGKILL every process of the tree now (a terminate under way then sees it gone). */
  killNow(): void {
    if (this.gone || this.emptied || !this.tree) return;
    killTreeNow(this.tree);
  }

  /**
   * After the root exited: true when a process of the tree may still run (its group has a member,
   * or a member seen while the root ran, a `setsid` child included, is alive). Cheap: one group
   * probe plus one `/proc/<pid>/stat` read per remembered member; no walk of `/proc`. Supervised,
   * it is exact and cheaper still: the supervisor is still running, or it is not.
   */
  mayHaveLeftovers(): boolean {
    return !this.gone && !this.emptied && this.tree !== undefined && !this.tree.looksGone();
  }

  /** Resolves `true` once no process of the tree remains; `false` when `signal` aborted first. */
  async waitForExit(signal?: AbortSignal): Promise<boolean> {
    if (this.gone || !this.tree) return true;
    if (signal?.aborted) return false;
    if (signal) {
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<void>((resolve) => {
        onAbort = resolve;
        signal.addEventListener('abort', onAbort, { once: true });
      });
      await Promise.race([this.rootExited, aborted]);
      signal.removeEventListener('abort', onAbort!);
      if (signal.aborted) return false;
    } else {
      await this.rootExited;
    }
    if (this.gone) return true;
    const goneNow = await waitForTreeGone(this.tree, { signal });
    if (goneNow) this.markGone();
    return goneNow;
  }

  /**
   * Terminate the tree if it is alive, wait until it is gone, then remove this handle's spill files
   * (unless the spec kept them). Collected text stays readable.
   */
  async dispose(): Promise<void> {
    this.terminate();
    await this.waitForExit();
    await this.done.catch(() => undefined);
    await Promise.all(this.collectors.map((collector) => collector.dispose()));
  }

  /** The handle's collectors (the runtime disposes them at shutdown). */
  collectorList(): readonly OutputCollector[] {
    return this.collectors;
  }

  /**
   * After close: stop tracking a tree that looks gone (root reaped, group empty: no /proc scan, so
   * a short command pays nothing extra), or keep watching it in the background. A tree that only
   * looked gone is not yet known gone: `terminate()` and `waitForExit()` still scan for members
   * that left the group (a setsid'ed child, a job-control shell's jobs). A supervised tree whose
   * supervisor reported nothing left below it is gone: the supervisor is exiting on its own.
   */
  private afterClose(status: SupervisorStatus | undefined): void {
    const tree = this.tree!;
    if (this.gone) return;
    if (status?.kind === 'exec-failed' || (status?.kind === 'ended' && status.treeEmpty)) {
      // Nothing to track or end; the tree is gone once the supervisor has exited (a moment later).
      this.emptied = true;
      this.untrack();
      void this.rootExited.then(() => this.markGone());
      return;
    }
    if (tree.looksGone()) {
      this.untrack();
      return;
    }
    this.livenessTimer = setInterval(() => {
      if (tree.looksGone() && !this.terminating) this.untrack();
    }, LIVENESS_POLL_MS);
    // Watching must not keep the host alive; the exit finalizer covers the host leaving.
    this.livenessTimer.unref();
  }

  /** Known to the runtime (for dispose) and to the host-exit finalizer. */
  private track(): void {
    registerTreeForExit(this.tree!);
    this.owner.treeLive(this);
  }

  private untrack(): void {
    clearInterval(this.livenessTimer);
    this.livenessTimer = undefined;
    this.abortCleanup?.();
    this.abortCleanup = undefined;
    unregisterTreeForExit(this.tree!);
    this.owner.treeGone(this);
  }

  private markGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.untrack();
  }
}
