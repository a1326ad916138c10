/**
 * The live state one suite run shares: the context, its main handle, a scratch directory inside
 * the context, and every extra handle a case spawned (all destroyed at the end).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type {
  ContextHandle,
  ExecOptions,
  ExecResult,
  ExecutionContext,
  SpawnConfig,
} from '../context/types.js';
import type { ResolvedOptions } from './options.js';
import { aliveCommand, heartbeatFile } from './process-probe.js';
import { shQuote } from './sh-quote.js';
import { delay } from './wait-until.js';

/** True when `path` is `root` or lies below it (lexically; both absolute and normalized). */
export function isInside(path: string, root: string): boolean {
  if (root === '/') return path.startsWith('/');
  return path === root || path.startsWith(`${root}/`);
}

/** How long a live heartbeat may take to tick before the suite calls it invisible. */
const HEARTBEAT_VISIBLE_MS = 5_000;
/** Silence that proves a heartbeat stopped (twenty beats). */
const HEARTBEAT_QUIET_MS = 2_000;

/** A planted process being watched; see {@link Fixture.watch}. */
export interface ProcessWatch {
  /** `pid`: checked with `kill -0` and identity; `heartbeat`: checked by its heartbeat file. */
  readonly mode: 'pid' | 'heartbeat';
  readonly pid: number;
  /** True once the process is gone (by pid: not alive; by heartbeat: no tick over a quiet window). */
  gone(): Promise<boolean>;
}

/** A process planted by a probe: its pid and a token its command line carries. */
export interface PlantedProcess {
  readonly pid: number;
  readonly token: string;
}

/** Shared state of one run. Created once the context exists; `setUp` runs in `beforeAll`. */
export class Fixture {
  readonly context: ExecutionContext;
  readonly options: ResolvedOptions;
  private mainHandle: ContextHandle | undefined;
  private scratchDir: string | undefined;
  private rootDir: string | undefined;
  private readonly extraHandles: ContextHandle[] = [];
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  private readonly runId = randomBytes(4).toString('hex');

  constructor(context: ExecutionContext, options: ResolvedOptions) {
    this.context = context;
    this.options = options;
  }

  /** The handle most cases use. */
  get main(): ContextHandle {
    if (!this.mainHandle) throw new Error('the conformance fixture is not set up (did beforeAll fail?)');
    return this.mainHandle;
  }

  /** Absolute scratch directory inside the context, removed at the end. */
  get scratch(): string {
    if (!this.scratchDir) throw new Error('the conformance fixture is not set up (did beforeAll fail?)');
    return this.scratchDir;
  }

  /** The workspace root the containment section attacks. */
  get workspaceRoot(): string {
    if (!this.rootDir) throw new Error('the conformance fixture is not set up (did beforeAll fail?)');
    return this.rootDir;
  }

  /** A name unique to this run, for files created outside the scratch directory. */
  unique(label: string): string {
    return `berth-conformance-${label}-${this.runId}`;
  }

  async setUp(): Promise<void> {
    const config = await this.options.spawnConfig();
    const handle = await this.context.spawn(config);
    this.mainHandle = handle;
    if (typeof handle?.cwd !== 'string' || !handle.cwd.startsWith('/')) {
      throw new Error(
        `spawn() returned a handle whose cwd is not an absolute path: ${JSON.stringify(handle)}`,
      );
    }
    const cwd = posix.normalize(handle.cwd);
    this.rootDir = this.options.workspaceRoot ?? cwd;
    if (!isInside(cwd, this.rootDir)) {
      throw new Error(
        `the handle's cwd ${cwd} is outside workspaceRoot ${this.rootDir}; spawn handles inside the root (spawnConfig.cwd)`,
      );
    }
    this.scratchDir = posix.join(cwd, this.unique('scratch'));
    if (this.context.capabilities.shell) {
      await this.sh(`mkdir -p ${shQuote(this.scratchDir)}`);
    }
  }

  /** Removes the scratch directory and destroys every handle; collects errors, throws the first. */
  async tearDown(): Promise<void> {
    const errors: unknown[] = [];
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => errors.push(error));
    }
    for (const handle of this.extraHandles.splice(0)) {
      await this.context.destroy(handle).catch((error: unknown) => errors.push(error));
    }
    if (this.mainHandle) {
      if (this.scratchDir && this.context.capabilities.shell) {
        await this.sh(`rm -rf ${shQuote(this.scratchDir)}`).catch((error: unknown) => errors.push(error));
      }
      await this.context.destroy(this.mainHandle).catch((error: unknown) => errors.push(error));
    }
    if (errors.length > 0) throw errors[0];
  }

  /** Registers `cleanup` to run at tear-down (before handles are destroyed), last in first out. */
  addCleanup(cleanup: () => Promise<unknown>): void {
    this.cleanups.push(cleanup);
  }

  /** Spawns another handle (same config, plus `extra`), destroyed at the end of the run. */
  async spawn(extra?: Partial<SpawnConfig>): Promise<ContextHandle> {
    const base = await this.options.spawnConfig();
    const config: SpawnConfig | undefined = extra
      ? { ...base, ...extra, env: { ...base?.env, ...extra.env } }
      : base;
    const handle = await this.context.spawn(config);
    this.extraHandles.push(handle);
    return handle;
  }

  /** A fresh directory for one case, below the scratch directory. Created when a shell exists. */
  async caseDir(caseId: string): Promise<string> {
    const dir = posix.join(this.scratch, caseId.replace(/[^A-Za-z0-9_-]+/g, '-'));
    if (this.context.capabilities.shell) await this.sh(`mkdir -p ${shQuote(dir)}`);
    return dir;
  }

  /** `exec` on `handle` (default main). */
  exec(command: string, options?: ExecOptions, handle: ContextHandle = this.main): Promise<ExecResult> {
    return this.context.exec(handle, command, options);
  }

  /** Runs `command` and returns its stdout; throws with both streams when it exits non-zero. */
  async sh(command: string, handle: ContextHandle = this.main): Promise<string> {
    const result = await this.context.exec(handle, command);
    if (result.exitCode !== 0) {
      throw new Error(
        `setup command failed (exit ${result.exitCode}, signal ${result.signal}): ${command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
      );
    }
    return result.stdout;
  }

  /**
   * Asks the context whether a process still runs (a zombie counts as gone). Give a
   * {@link PlantedProcess} to also check its identity, not only its pid.
   */
  async isAlive(target: number | PlantedProcess, handle: ContextHandle = this.main): Promise<boolean> {
    const command =
      typeof target === 'number' ? aliveCommand(target) : aliveCommand(target.pid, target.token);
    const answer = (await this.sh(command, handle)).trim();
    if (answer !== 'alive' && answer !== 'dead')
      throw new Error(`alive probe printed ${JSON.stringify(answer)}`);
    return answer === 'alive';
  }

  /**
   * Starts watching a process planted with `pidFile` (see `process-probe.ts`), through
   * `observer`. Doubles as the positive control: it throws unless the process is visibly alive,
   * so a later "gone" always means something. By pid (`kill -0` plus identity) where pids mean
   * the same to every command; else by its heartbeat file, for backends that give each command
   * its own pid namespace.
   */
  async watch(pidFile: string, what: string, observer: ContextHandle = this.main): Promise<ProcessWatch> {
    const planted = await this.readPlanted(pidFile, observer);
    if (await this.isAlive(planted, observer)) {
      return { mode: 'pid', pid: planted.pid, gone: async () => !(await this.isAlive(planted, observer)) };
    }
    const beat = heartbeatFile(pidFile);
    const read = () => this.sh(`cat ${shQuote(beat)} 2>/dev/null || true`, observer);
    const first = await read();
    const deadline = Date.now() + HEARTBEAT_VISIBLE_MS;
    while ((await read()) === first) {
      if (Date.now() > deadline) {
        throw new Error(
          `${what}: the planted process ${planted.pid} is visible neither by pid nor by its heartbeat (${beat}) through a later exec, so its death could not be verified`,
        );
      }
      await delay(50);
    }
    return {
      mode: 'heartbeat',
      pid: planted.pid,
      gone: async () => {
        const before = await read();
        await delay(HEARTBEAT_QUIET_MS);
        return (await read()) === before;
      },
    };
  }

  /**
   * For a process of `owner`, a handle about to be destroyed: checks it is alive through `owner`
   * (throws if not), then returns a watch through the main handle, or undefined when the main
   * handle cannot see it (each handle its own machine, with no shared files).
   */
  async watchAcross(pidFile: string, what: string, owner: ContextHandle): Promise<ProcessWatch | undefined> {
    await this.watch(pidFile, what, owner);
    try {
      return await this.watch(pidFile, what, this.main);
    } catch {
      return undefined;
    }
  }

  /**
   * Throws unless every watched process is gone; `what` names the event that should have ended
   * them. Heartbeat-mode checks are reported through `note`.
   */
  async expectGone(
    watches: readonly ProcessWatch[],
    what: string,
    note: (message: string) => Promise<void>,
  ): Promise<void> {
    const verdicts = await Promise.all(watches.map((w) => w.gone()));
    const survivors = watches.filter((_, i) => !verdicts[i]).map((w) => w.pid);
    if (survivors.length > 0) {
      throw new Error(`${what}: descendant ${survivors.join(', ')} still runs after the call settled`);
    }
    if (watches.some((w) => w.mode === 'heartbeat')) {
      await note(
        `${what}: pids do not carry across commands here; the tree's death was verified by its heartbeat stopping`,
      );
    }
  }

  /** Reads the pid file a probe from `process-probe.ts` wrote; its path is the identity token. */
  async readPlanted(pidFile: string, handle: ContextHandle = this.main): Promise<PlantedProcess> {
    return { pid: await this.readPid(pidFile, handle), token: pidFile };
  }

  /** Reads a pid file written by a probe; throws when it is missing or malformed. */
  async readPid(pidFile: string, handle: ContextHandle = this.main): Promise<number> {
    const text = (await this.sh(`cat ${shQuote(pidFile)}`, handle)).trim();
    const pid = Number(text);
    if (!Number.isInteger(pid) || pid <= 0)
      throw new Error(`pid file ${pidFile} holds ${JSON.stringify(text)}`);
    return pid;
  }

  /** True when `path` exists in the context (asked through `exec`). */
  async exists(path: string, handle: ContextHandle = this.main): Promise<boolean> {
    const out = await this.sh(
      `if [ -e ${shQuote(path)} ] || [ -L ${shQuote(path)} ]; then echo yes; else echo no; fi`,
      handle,
    );
    return out.trim() === 'yes';
  }
}
