/**
 * A handle's sandbox session (the `session` option): the holder that owns the namespaces its
 * commands share (see `src/sandbox/session.ts`), and the session's /tmp, a private directory of
 * the context. Opened by `spawn`, ended by `destroy`; a SIGKILLed host ends it too, since the
 * holder waits on a pipe from this process, and the directory is swept with the context's others.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { SandboxUnavailableError } from '../../errors/index.js';
import type { PlaceholderLease } from '../../sandbox/placeholders.js';
import {
  HOLDER_INFO_FD,
  HOLDER_READY,
  planSessionHolder,
  type SessionNamespaces,
} from '../../sandbox/session.js';
import type { SandboxPolicy } from '../../sandbox/types.js';
import type { PrivateDirectory } from '../../subprocess/private-dir.js';
import { endHolder, holderRunning, startHolder } from './holder-process.js';

/** One handle's session. */
export class SandboxSession {
  private readonly tasks = new Set<Promise<unknown>>();

  private constructor(
    private readonly holder: ChildProcess,
    private readonly placeholders: PlaceholderLease,
    private readonly tmp: PrivateDirectory,
    private readonly graceMs: number,
    /** Where the namespaces are. */
    private readonly namespaces: SessionNamespaces,
  ) {}

  /**
   * Build the holder for `policy` and wait until its sandbox stands.
   * @throws SandboxUnavailableError with the reason and the fix when no session can be had here.
   */
  static async open(
    policy: SandboxPolicy,
    options: { readonly cwd: string; readonly tmp: PrivateDirectory; readonly graceMs: number },
  ): Promise<SandboxSession> {
    const plan = planSessionHolder(policy, {
      cwd: options.cwd,
      tmp: options.tmp.path,
      graceMs: options.graceMs,
    });
    if (!plan.ok) {
      options.tmp.remove();
      throw new SandboxUnavailableError(`no sandbox session can be started: ${plan.reason}`, plan.fix);
    }
    const started = await startHolder(plan.argv, { ready: HOLDER_READY, infoFd: HOLDER_INFO_FD });
    const pid = started.ok ? childPid(started.info) : null;
    if (!started.ok || pid === null) {
      if (started.ok) await endHolder(started.child, 0);
      plan.placeholders.release();
      options.tmp.remove();
      throw new SandboxUnavailableError(
        `no sandbox session can be started: ${started.ok ? 'bubblewrap did not report its child' : started.why}`,
        'check the host with `berth sandbox --check` (or probeSandbox), or create the context without `session`',
      );
    }
    return new SandboxSession(started.child, plan.placeholders, options.tmp, options.graceMs, {
      pid,
      userNamespace: process.getuid?.() !== 0,
      network: policy.network === 'deny',
      tmp: options.tmp.path,
    });
  }

  /**
   * Where a command finds the session's namespaces.
   * @throws SandboxUnavailableError when the holder is gone (something killed it from outside).
   */
  entry(): SessionNamespaces {
    if (!holderRunning(this.holder)) {
      throw new SandboxUnavailableError(
        "this handle's sandbox session has ended (its holder process exited)",
        'destroy the handle and spawn a new one',
      );
    }
    return this.namespaces;
  }

  /** Remember a background task of the session until it settles (see {@link endWhenIdle}). */
  track(settled: Promise<unknown>): void {
    this.tasks.add(settled);
    const forget = () => this.tasks.delete(settled);
    settled.then(forget, forget);
  }

  /** True while a task started in the session still runs. */
  hasTasks(): boolean {
    return this.tasks.size > 0;
  }

  /**
   * End the session once no task started in it still runs: a task reassigned to another handle
   * lives in this session's namespaces, so the session outlives its own handle until then.
   */
  async endWhenIdle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
    await this.end();
  }

  /**
   * End the session: TERM to every process left in it, the grace, then the end of its PID
   * namespace (KILL to whatever remains); then its /tmp is removed.
   */
  async end(): Promise<void> {
    await endHolder(this.holder, this.graceMs + 2000);
    this.placeholders.release();
    this.tmp.remove();
  }
}

/** The pid bubblewrap reported for its child (`--info-fd`), or null. */
function childPid(info: string): number | null {
  const match = /"child-pid":\s*(\d+)/.exec(info);
  return match ? Number(match[1]) : null;
}
