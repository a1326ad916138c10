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
} from '../contract/types.js';
import { shQuote } from '../subprocess/shell-quote.js';
import { isWithin } from '../vfs/path-scope.js';
import type { ResolvedOptions } from './options.js';
import { ProcessProbes, type ProcessWatch } from './process-watch.js';

/** Shared state of one run. Created once the context exists; `setUp` runs in `beforeAll`. */
export class Fixture extends ProcessProbes {
  readonly context: ExecutionContext;
  readonly options: ResolvedOptions;
  private mainHandle: ContextHandle | undefined;
  private scratchDir: string | undefined;
  private rootDir: string | undefined;
  private readonly extraHandles: ContextHandle[] = [];
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  private readonly runId = randomBytes(4).toString('hex');

  constructor(context: ExecutionContext, options: ResolvedOptions) {
    super();
    this.context = context;
    this.options = options;
  }

  /**
   * Checks a `watchAcross` result against the declared `handles` option, and says whether the
   * death of the watched tree can be verified: with `shared` handles a process that cannot be
   * watched from the main handle fails the case; with `isolated` handles one that can fails it too
   * (the declaration would hide a check the suite can make).
   */
  expectWatchableAcross(watch: ProcessWatch | undefined): watch is ProcessWatch {
    if (this.options.handles === 'shared' && watch === undefined) {
      throw new Error(
        "a process of one handle cannot be watched from another (no shared process table, no shared files): declare handles: 'isolated' if that is by design",
      );
    }
    if (this.options.handles === 'isolated' && watch !== undefined) {
      throw new Error(
        "handles are declared 'isolated', yet one handle's process was watched from another: declare handles: 'shared' so the suite verifies the tree's death",
      );
    }
    return watch !== undefined;
  }

  /** The handle most cases use. */
  override get main(): ContextHandle {
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
    if (!isWithin(this.rootDir, cwd)) {
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
  override async sh(command: string, handle: ContextHandle = this.main): Promise<string> {
    const result = await this.context.exec(handle, command);
    if (result.exitCode !== 0) {
      throw new Error(
        `setup command failed (exit ${result.exitCode}, signal ${result.signal}): ${command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
      );
    }
    return result.stdout;
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
