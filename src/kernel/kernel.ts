/**
 * The shell kernel: a bash-compatible interpreter that runs in-process over a virtual
 * filesystem. `exec` runs a script and returns exit facts and output through the shared
 * `OutputCapture` policy; a timeout ends it with 124, an abort with 130 (traps run either way);
 * limits end it with a message naming the limit. With `session: true`, variables, functions,
 * aliases, options, the working directory and running jobs carry over from call to call.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { emptyReader, readerFromBytes } from '../commands/byte-io.js';
import { encodeText } from '../commands/byte-text.js';
import type {
  ByteReader,
  ByteWriter,
  CommandHandler,
  CommandKind,
  CommandSpec,
} from '../commands/command.js';
import { createCooperate } from '../commands/cooperate.js';
import { type NetworkOptions, type NetworkPolicy, resolveNetworkPolicy } from '../commands/net/allowlist.js';
import { builtinCommands } from '../commands/registry.js';
import { DEFAULT_OUTPUT_POLICY, DEFAULT_TIMEOUT_MS } from '../contract/defaults.js';
import { OutputCapture } from '../contract/output-capture.js';
import type { ExecResult, OutputChunk, OutputPolicy } from '../contract/types.js';
import { durationMs, optionsObject } from '../contract/validate-options.js';
import { InvalidArgumentError } from '../errors/index.js';
import { createPrivateDir, removePrivateDir } from '../subprocess/private-dir.js';
import type { Filesystem } from '../vfs/filesystem.js';
import { classifyName } from './exec/lookup.js';
import { writeStderr } from './exec/messages.js';
import { runSource } from './exec/source-loop.js';
import { deliverSignals, runExitTrap, runTrap } from './exec/trap.js';
import { createExternalGate, type ExternalCommands } from './external.js';
import { Budget, type KernelLimits, resolveLimits } from './limits.js';
import { type McpClientLike, type MountMcpOptions, mcpCommands } from './mcp-tools.js';
import { checkOptions } from './options-check.js';
import { type CommandPlan, planScript } from './plan.js';
import { ProcessTable } from './process-table.js';
import { BashRandom } from './random.js';
import { CancelControl, ExitControl, LimitControl, ReturnControl, SignalControl } from './runtime/control.js';
import { createShell } from './runtime/init.js';
import { JobTable } from './runtime/jobs.js';
import { ReaderFile, WriterFile } from './runtime/open-file.js';
import { normalizePath } from './runtime/paths.js';
import type {
  ExternalGate,
  Identity,
  RegisteredCommand,
  Runtime,
  Shell,
  TrashLike,
} from './runtime/shell.js';
import { setVar, unsetVar } from './runtime/vars.js';
import { ATTR_EXPORT } from './state/variables.js';
import { type HoldReport, Watchdog } from './watchdog.js';

export interface KernelOptions {
  /** The filesystem scripts see (`/` is its root). */
  readonly fs: Filesystem;
  /** Initial working directory (default `/`). */
  readonly cwd?: string | undefined;
  /** The environment every call starts with (exported variables). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Overrides of {@link KernelLimits}. */
  readonly limits?: Partial<KernelLimits> | undefined;
  /** Keep shell state between calls (default false: each call starts fresh, like `bash -c`). */
  readonly session?: boolean | undefined;
  /** Commands besides the builtins (default: every built-in command of berth). */
  readonly commands?: Iterable<CommandSpec> | undefined;
  /** Who the shell runs as. */
  readonly identity?: Partial<Identity> | undefined;
  /** Seed of `RANDOM` (default: random). */
  readonly randomSeed?: number | undefined;
  /** Commands allowed to run on a host through an `ExecutionContext` (default: none). */
  readonly external?: ExternalCommands | undefined;
  /** Output policy of each call (default: the contract's). */
  readonly output?: Partial<OutputPolicy> | undefined;
  /** `$0` and the name in messages (default `bash`). */
  readonly shellName?: string | undefined;
  /**
   * How messages name their source: `'c'` as `bash -c` (default), `'stdin'` as a script read
   * from standard input.
   */
  readonly scriptMode?: 'c' | 'stdin' | undefined;
  /** Time the traps get after a timeout or an abort (default 1000 ms). */
  readonly trapGraceMs?: number | undefined;
  /** Snapshot destructive writes under `set -o trash`. */
  readonly trash?: TrashLike | undefined;
  /**
   * A private (0700) host directory for the spill files of this kernel's calls, which its owner
   * removes (default: one directory per process, removed when the process exits).
   */
  readonly spillDir?: string | undefined;
  /**
   * Pids and live shells shared with other kernels (default: this kernel's own): kernels given
   * one table never reuse each other's pids, and `kill` reaches shells of all of them.
   */
  readonly processes?: ProcessTable | undefined;
  /**
   * What `curl` and `wget` may fetch: an allowlist of URL prefixes and methods, with bounds on
   * response size, request size, time and redirects. Default none: the shell has no network.
   */
  readonly network?: NetworkOptions | NetworkPolicy | undefined;
}

export interface KernelExecOptions {
  readonly cwd?: string | undefined;
  /** Variables to set (or, `undefined`, unset) in the environment for this call. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The script's standard input: bytes, or a stream read as the script reads (default: empty). */
  readonly stdin?: string | Uint8Array | ByteReader | undefined;
  /**
   * Write the script's standard output to this writer instead of capturing it (the result's
   * `stdout` is then empty). It is closed when the last descriptor on it closes.
   */
  readonly stdout?: ByteWriter | undefined;
  /** Standard error to this writer instead of capturing it, as {@link stdout}. */
  readonly stderr?: ByteWriter | undefined;
  /** Hears the pid of the call's shell (`$$`) once it exists, before the script runs. */
  readonly onStart?: ((pid: number) => void) | undefined;
  /** Default 30 s (the contract's); `0` is not allowed. */
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onOutput?: ((chunk: OutputChunk) => void) | undefined;
}

/** The exit facts and output of a call. */
export interface KernelResult extends ExecResult {
  /** Stdout exactly as written, when it fit in memory (`null` when truncated). */
  readonly stdoutBytes: Uint8Array | null;
  readonly stderrBytes: Uint8Array | null;
  /** The limit that ended the call (`maxCommands`, ...), if one did. */
  readonly limit: keyof KernelLimits | null;
  /** Patient holds of the call's timeout. */
  readonly holds: readonly HoldReport[];
  /**
   * The signal that ended the call's shell (`kill -9 $$`: `SIGKILL`), else null. `exitCode` is
   * then 128 + its number, as bash's `$?` reports it.
   */
  readonly terminatedBy: string | null;
}

const KERNEL_OPTIONS = [
  'fs',
  'cwd',
  'env',
  'limits',
  'session',
  'commands',
  'identity',
  'randomSeed',
  'external',
  'output',
  'shellName',
  'scriptMode',
  'trapGraceMs',
  'trash',
  'spillDir',
  'processes',
  'network',
] as const;
const EXEC_OPTIONS = [
  'cwd',
  'env',
  'stdin',
  'stdout',
  'stderr',
  'onStart',
  'timeoutMs',
  'signal',
  'onOutput',
] as const;

let spillRoot: string | undefined;
function spillDir(): string {
  if (spillRoot === undefined) {
    spillRoot = createPrivateDir('berth-kernel-');
    const dir = spillRoot;
    process.once('exit', () => removePrivateDir(dir));
  }
  return spillRoot;
}

/** Create a kernel. */
export function createKernel(options: KernelOptions): Kernel {
  return new Kernel(options);
}

export class Kernel {
  private readonly fs: Filesystem;
  private readonly limits: KernelLimits;
  private readonly commands = new Map<string, RegisteredCommand>();
  private readonly byPath = new Map<string, RegisteredCommand>();
  private readonly identity: Identity;
  private readonly random: BashRandom;
  private readonly external: ExternalGate | undefined;
  private readonly policy: OutputPolicy;
  private readonly network: NetworkPolicy | undefined;
  private readonly options: KernelOptions;
  private readonly cooperate = createCooperate();
  /** Pids and every live shell (across the calls of a session, and of kernels sharing it). */
  private readonly processes: ProcessTable;
  private session: Shell | undefined;
  /** A call of the session ran `exit` (a terminal would close). */
  private sessionExited = false;
  /** Cancels what a session leaves running (its background jobs) when the kernel closes. */
  private readonly sessionController = new AbortController();

  constructor(options: KernelOptions) {
    const o = optionsObject(options, 'options');
    checkOptions(o, KERNEL_OPTIONS, 'options');
    if (o.fs === undefined)
      throw new InvalidArgumentError('options.fs', 'is required: give the kernel a Filesystem');
    this.options = options;
    this.fs = o.fs;
    this.limits = resolveLimits(o.limits);
    this.identity = {
      user: o.identity?.user ?? 'user',
      uid: o.identity?.uid ?? 1000,
      gid: o.identity?.gid ?? 1000,
      home: o.identity?.home ?? '/home/user',
      hostname: o.identity?.hostname ?? 'berth',
    };
    this.random = new BashRandom(o.randomSeed ?? randomBytes(4).readUInt32LE(0));
    this.external = o.external === undefined ? undefined : createExternalGate(o.external);
    this.policy = { ...DEFAULT_OUTPUT_POLICY, ...(o.output ?? {}) };
    if (o.processes !== undefined && !(o.processes instanceof ProcessTable))
      throw new InvalidArgumentError('options.processes', 'must be a ProcessTable');
    this.processes = o.processes ?? new ProcessTable();
    this.network = resolveNetworkPolicy(o.network, 'options.network');
    for (const spec of o.commands ?? builtinCommands().values()) this.register(spec);
  }

  /** Register (or replace) a command: it runs with argv, byte streams, env, cwd, fs and signal. */
  defineCommand(
    name: string,
    handler: CommandHandler,
    options: { readonly help?: string; readonly summary?: string; readonly paths?: readonly string[] } = {},
  ): void {
    if (typeof name !== 'string' || !/^[^\s/$`'"\\|&;()<>]+$/.test(name)) {
      throw new InvalidArgumentError(
        'name',
        `must be a command name without blanks, slashes or shell characters, got ${JSON.stringify(name)}`,
      );
    }
    if (typeof handler !== 'function')
      throw new InvalidArgumentError('handler', 'must be a function (ctx) => Promise<number>');
    const summary = options.summary ?? options.help?.split('\n')[0] ?? `${name} (a host-defined command)`;
    this.register(
      {
        name,
        summary,
        help:
          options.help === undefined
            ? `${name}: ${summary}\n`
            : options.help.endsWith('\n')
              ? options.help
              : `${options.help}\n`,
        run: handler,
      },
      options.paths,
    );
  }

  /**
   * Mount the tools of a connected MCP server as commands (`prefix` + the tool's name): each takes
   * its arguments as flags or as a JSON object on stdin and prints its result. Resolves with the
   * names mounted.
   */
  async mountMcpTools(client: McpClientLike, options: MountMcpOptions = {}): Promise<string[]> {
    const o = optionsObject(options, 'options');
    checkOptions(o, ['prefix', 'holdMs'], 'options');
    const commands = await mcpCommands(client, o);
    for (const c of commands) {
      this.register({
        name: c.name,
        summary: c.tool.description?.split('\n')[0] ?? `MCP tool ${c.tool.name}`,
        help: c.help,
        run: c.run,
      });
    }
    return commands.map((c) => c.name);
  }

  private register(spec: CommandSpec, paths?: readonly string[]): void {
    const previous = this.commands.get(spec.name);
    if (previous !== undefined) for (const p of previous.paths) this.byPath.delete(p);
    const entry: RegisteredCommand = { spec, paths: paths ?? [`/usr/bin/${spec.name}`, `/bin/${spec.name}`] };
    this.commands.set(spec.name, entry);
    for (const p of entry.paths) this.byPath.set(normalizePath(p), entry);
  }

  /** What `name` resolves to now (in the session's state, if any). */
  async classify(name: string): Promise<CommandKind> {
    const sh = this.session ?? this.freshShell(this.newCall(undefined, undefined), {});
    return classifyName(sh, name);
  }

  /** Parse without running: every command the script could run, and which would leave the kernel. */
  plan(script: string): CommandPlan {
    return planScript(script, {
      isBuiltin: (n) => this.isBuiltinName(n),
      isCommand: (n) => this.commands.has(n),
      isFunction: (n) => this.session?.functions.get(n) !== undefined,
      isExternalAllowed: (argv) => this.external?.allows(argv) === true,
    });
  }

  private isBuiltinName(name: string): boolean {
    return BUILTIN_NAMES.has(name);
  }

  /** End the session: background jobs are killed. */
  close(): void {
    this.sessionController.abort(new SignalControl('SIGHUP', 129));
    this.session?.jobs.killAll('HUP');
    this.session = undefined;
  }

  /**
   * The session's shell as a prompt needs it: its working directory, and whether a call ran
   * `exit` (an interactive shell would end there). Undefined without a session or before its
   * first call.
   */
  sessionInfo(): { readonly cwd: string; readonly exited: boolean } | undefined {
    const sh = this.session;
    return sh === undefined ? undefined : { cwd: sh.cwd, exited: this.sessionExited };
  }

  /** Forget the session's state (the next call starts fresh). */
  reset(): void {
    this.session?.jobs.killAll('HUP');
    this.session = undefined;
    this.sessionExited = false;
  }

  /** Run a script. */
  async exec(script: string, options: KernelExecOptions = {}): Promise<KernelResult> {
    const o = optionsObject(options, 'options');
    checkOptions(o, EXEC_OPTIONS, 'options');
    if (typeof script !== 'string')
      throw new InvalidArgumentError('script', `must be a string, got ${typeof script}`);
    const timeoutMs = durationMs(o.timeoutMs, 'options.timeoutMs', DEFAULT_TIMEOUT_MS);
    const started = performance.now();
    const controller = new AbortController();
    const onUserAbort = (): void => controller.abort(new CancelControl('abort'));
    if (o.signal?.aborted) onUserAbort();
    o.signal?.addEventListener('abort', onUserAbort, { once: true });
    const watchdog = new Watchdog(timeoutMs, () => controller.abort(new CancelControl('timeout')));
    const listen = (stream: 'stdout' | 'stderr') =>
      o.onOutput === undefined ? undefined : (text: string) => o.onOutput?.({ stream, text });
    const dir = this.options.spillDir ?? spillDir();
    const out = new OutputCapture(this.policy, { spillDir: dir, label: 'stdout', onText: listen('stdout') });
    const err = new OutputCapture(this.policy, { spillDir: dir, label: 'stderr', onText: listen('stderr') });
    const outTap = new ByteTap(this.policy.maxOutputBytes);
    const errTap = new ByteTap(this.policy.maxOutputBytes);
    const call = this.newCall(controller.signal, watchdog);
    const sh = this.shellFor(call, o);
    const stdinReader =
      o.stdin === undefined
        ? emptyReader()
        : isByteReader(o.stdin)
          ? o.stdin
          : readerFromBytes(typeof o.stdin === 'string' ? encodeText(o.stdin) : o.stdin);
    const baseFds = sh.fds;
    const fds = baseFds.overlay();
    fds.set(0, new ReaderFile(stdinReader, 'pipe:[stdin]'));
    fds.set(1, new WriterFile(o.stdout ?? captureWriter(out, outTap), 'pipe:[stdout]'));
    fds.set(2, new WriterFile(o.stderr ?? captureWriter(err, errTap), 'pipe:[stderr]'));
    sh.fds = fds;
    sh.signal = controller.signal;
    const callTag = {};
    sh.callTag = callTag;
    o.onStart?.(sh.pid);
    let limit: keyof KernelLimits | null = null;
    let terminatedBy: string | null = null;
    let cancelled: 'timeout' | 'abort' | undefined;
    const graceMs = o === undefined ? 1000 : (this.options.trapGraceMs ?? 1000);
    const run = async (): Promise<number> => {
      try {
        try {
          await runSource(sh, script, { kind: this.options.scriptMode ?? 'c', topLevel: true });
          if (sh.pendingSignals.length > 0) await deliverSignals(sh);
          return await this.finishShell(sh, sh.status);
        } catch (error) {
          if (error instanceof SignalControl) terminatedBy = error.signal;
          if (error instanceof ExitControl && sh === this.session) this.sessionExited = true;
          if (
            error instanceof ExitControl ||
            error instanceof SignalControl ||
            error instanceof ReturnControl
          ) {
            return await this.finishShell(sh, error.status);
          }
          if (error instanceof LimitControl) {
            limit = error.limit as keyof KernelLimits;
            await writeStderr(sh, `${error.message}\n`);
            return 1;
          }
          if (error instanceof CancelControl) {
            cancelled = error.reason;
            return await this.afterCancel(sh, error.reason, graceMs);
          }
          throw error;
        }
      } catch (error) {
        if (error instanceof CancelControl) {
          cancelled ??= error.reason;
          return error.reason === 'timeout' ? 124 : 130;
        }
        if (error instanceof LimitControl) {
          limit = error.limit as keyof KernelLimits;
          return 1;
        }
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        await writeStderr(sh, `berth: internal error in the shell kernel: ${message}\n`);
        return 70;
      }
    };
    // The script may ignore its cancellation (a command that never returns): give up on it
    // `graceMs` after the cancel, keeping whatever it wrote.
    let status = await raceCancel(run(), controller.signal, graceMs + 50);
    // A process substitution still running holds the call's output, as it holds bash's pipe:
    // the call ends when it does (or at the timeout).
    if (status !== undefined && call.tracked.size > 0) {
      const done = status;
      status = await raceCancel(
        Promise.allSettled([...call.tracked]).then(() => done),
        controller.signal,
        graceMs + 50,
      );
    }
    if (status === undefined)
      status = (controller.signal.reason as CancelControl | undefined)?.reason === 'timeout' ? 124 : 130;
    const reason = controller.signal.aborted
      ? (controller.signal.reason as CancelControl | undefined)
      : undefined;
    if (reason instanceof CancelControl) cancelled ??= reason.reason;
    if (cancelled === 'timeout') status = 124;
    else if (cancelled === 'abort') status = 130;
    watchdog.dispose();
    o.signal?.removeEventListener('abort', onUserAbort);
    sh.fds = baseFds;
    fds.dispose();
    if (!this.options.session) {
      sh.jobs.killAll('HUP');
      controller.abort(new SignalControl('SIGHUP', 129));
      sh.dispose();
      // The call's processes (a job left running, an orphaned subshell) end on that abort at their
      // next step: the call returns once they have, so no pid of it answers a later `kill -0`.
      await callShellsGone(sh.rt.shells, callTag, graceMs + 50);
    }
    const stdout = await out.finish();
    const stderr = await err.finish();
    const result: KernelResult = {
      exitCode: status,
      signal: null,
      stdout: stdout.text,
      stderr: stderr.text,
      timedOut: cancelled === 'timeout',
      aborted: cancelled === 'abort',
      durationMs: Math.round(performance.now() - started),
      stdoutFacts: stdout.facts,
      stderrFacts: stderr.facts,
      stdoutBytes: outTap.bytes(),
      stderrBytes: errTap.bytes(),
      limit,
      holds: watchdog.report(),
      terminatedBy: cancelled === undefined ? terminatedBy : null,
    };
    return result;
  }

  /** A shell ends: its EXIT trap runs. */
  private async finishShell(sh: Shell, status: number): Promise<number> {
    sh.status = status;
    try {
      return await runExitTrap(sh, status);
    } catch (error) {
      if (error instanceof ExitControl || error instanceof SignalControl) return error.status;
      throw error;
    }
  }

  /** After a timeout or abort: the TERM/INT trap and the EXIT trap run, within `graceMs`. */
  private async afterCancel(sh: Shell, reason: 'timeout' | 'abort', graceMs: number): Promise<number> {
    const grace = new AbortController();
    const timer = setTimeout(() => grace.abort(new CancelControl(reason)), graceMs);
    sh.signal = grace.signal;
    const status = reason === 'timeout' ? 124 : 130;
    try {
      await runTrap(sh, reason === 'timeout' ? 'TERM' : 'INT');
      await runExitTrap(sh, status);
    } catch {
      // a trap that fails or runs out of time changes nothing
    } finally {
      clearTimeout(timer);
    }
    return status;
  }

  private newCall(signal: AbortSignal | undefined, watchdog: Watchdog | undefined): CallState {
    const s = signal ?? new AbortController().signal;
    const budget = new Budget(this.limits);
    const tracked = new Set<Promise<unknown>>();
    const rt: Runtime = {
      fs: this.fs,
      limits: this.limits,
      budget,
      cooperate: this.cooperate,
      signal: s,
      checkTime: () => {
        if (s.aborted) throw s.reason ?? new CancelControl('abort');
        if (watchdog?.expired()) throw new CancelControl('timeout');
      },
      commands: this.commands,
      commandAt: (path) => this.byPath.get(path),
      external: this.external,
      identity: this.identity,
      network: this.network,
      random: () => this.random.next(),
      seedRandom: (seed) => this.random.reseed(seed),
      nextPid: () => this.processes.nextPid(),
      secondsBase: Date.now(),
      now: () => Date.now(),
      watchdog,
      trash: this.options.trash,
      shells: this.processes.shells,
      track: (work) => {
        tracked.add(work);
        void work.finally(() => tracked.delete(work));
      },
    };
    const call: CallState = { rt, tracked };
    return call;
  }

  private freshShell(call: CallState, o: Partial<KernelExecOptions>): Shell {
    const env = new Map(Object.entries(this.options.env ?? {}));
    if (!env.has('HOME')) env.set('HOME', this.identity.home);
    if (!env.has('PATH')) env.set('PATH', '/usr/local/bin:/usr/bin:/bin');
    if (!env.has('USER')) env.set('USER', this.identity.user);
    for (const [k, v] of Object.entries(o.env ?? {})) {
      if (v === undefined) env.delete(k);
      else env.set(k, v);
    }
    const cwd = normalizePath(o.cwd ?? this.options.cwd ?? '/');
    const sh = createShell(call.rt, {
      env,
      cwd,
      arg0: this.options.shellName ?? 'bash',
      args: [],
      jobs: new JobTable(),
      mode: this.options.scriptMode ?? 'c',
    });
    return sh;
  }

  private shellFor(call: CallState, o: Partial<KernelExecOptions>): Shell {
    if (!this.options.session) return this.freshShell(call, o);
    if (this.session === undefined) {
      this.session = this.freshShell(call, o);
      return this.session;
    }
    const sh = this.session;
    // A session's shell lives on: bind it to this call's runtime.
    rebind(sh, call.rt);
    if (o.cwd !== undefined) sh.cwd = normalizePath(o.cwd);
    for (const [k, v] of Object.entries(o.env ?? {})) {
      if (v === undefined) unsetVar(sh, k);
      else {
        setVar(sh, k, v);
        const f = sh.vars.find(k);
        if (f !== undefined)
          sh.vars.put(f.scope, k, { ...f.variable, attrs: f.variable.attrs | ATTR_EXPORT });
      }
    }
    return sh;
  }
}

interface CallState {
  readonly rt: Runtime;
  /** Concurrent work of the call (process substitutions). */
  readonly tracked: ReadonlySet<Promise<unknown>>;
}

/** Point a session's shell (and its future forks) at a new call's runtime. */
function rebind(sh: Shell, rt: Runtime): void {
  (sh as { rt: Runtime }).rt = rt;
}

/** Resolves with `work`'s result, or `undefined` when `signal` aborted `graceMs` ago and it is still running. */
async function raceCancel(
  work: Promise<number>,
  signal: AbortSignal,
  graceMs: number,
): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const giveUp = new Promise<undefined>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(undefined), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, giveUp]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** Keeps a stream's bytes while they fit (for byte-exact results); drops them past the cap. */
class ByteTap {
  private parts: Uint8Array[] | undefined = [];
  private size = 0;
  constructor(private readonly cap: number) {}

  write(bytes: Uint8Array): void {
    if (this.parts === undefined) return;
    this.size += bytes.length;
    if (this.size > this.cap) {
      this.parts = undefined;
      return;
    }
    this.parts.push(bytes.slice());
  }

  bytes(): Uint8Array | null {
    if (this.parts === undefined) return null;
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function isByteReader(value: unknown): value is ByteReader {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Uint8Array) &&
    typeof (value as ByteReader).read === 'function'
  );
}

function captureWriter(capture: OutputCapture, tap: ByteTap): ByteWriter {
  return {
    write(bytes: Uint8Array): Promise<void> {
      capture.write(bytes);
      tap.write(bytes);
      return Promise.resolve();
    },
    attachData: () => {},
    close: () => Promise.resolve(),
  };
}

import { BUILTINS } from './builtins/registry.js';

const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTINS.keys());

/** Waits until no shell of the call tagged `callTag` is left in `shells`, or `limitMs` passed. */
async function callShellsGone(
  shells: ReadonlyMap<number, Shell>,
  callTag: object,
  limitMs: number,
): Promise<void> {
  const deadline = performance.now() + limitMs;
  const left = () => {
    for (const shell of shells.values()) if (shell.callTag === callTag) return true;
    return false;
  };
  while (left() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
}
