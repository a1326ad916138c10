/**
 * The state of one shell: variables, functions, aliases, options, positional parameters, the
 * working directory, file descriptors, traps and jobs. A subshell ({@link Shell.fork}) shares
 * nothing mutable with its parent, yet copies no variable: scopes and tables are copy-on-write.
 * @module
 */

import type { CommandSpec } from '../../commands/command.js';
import type { Cooperate } from '../../commands/cooperate.js';
import type { NetworkPolicy } from '../../commands/net/allowlist.js';
import type { Filesystem } from '../../vfs/filesystem.js';
import { History } from '../builtins/history.js';
import { ResourceLimits } from '../builtins/ulimit.js';
import { type Budget, type KernelLimits, limitReached } from '../limits.js';
import { CowMap, type Shareable } from '../state/cow-map.js';
import { type Scope, VarStore } from '../state/variables.js';
import type { Command, FunctionDefinition } from '../syntax/ast.js';
import { FdTable } from './fd-table.js';
import type { JobTable } from './jobs.js';
import { ShellOptions } from './options.js';

export interface FunctionEntry extends Shareable {
  readonly definition: FunctionDefinition;
  /** The file the function was defined in (`BASH_SOURCE` of its frames). */
  readonly source: string;
  /** `declare -t` / `-x` on a function. */
  attrs: number;
}

export interface AliasEntry extends Shareable {
  readonly value: string;
}

/** One frame of `FUNCNAME` / `BASH_SOURCE` / `BASH_LINENO`. */
export interface CallFrame {
  readonly name: string;
  readonly source: string;
  /** The line the function was called from. */
  readonly callLine: number;
}

/** A registered command and where it appears to live (`command -v` prints it). */
export interface RegisteredCommand {
  readonly spec: CommandSpec;
  /** Absolute paths at which the command is found (`/usr/bin/grep`, `/bin/grep`). */
  readonly paths: readonly string[];
}

/** An external command the gate allowed, to run on the host. */
export interface ExternalRun {
  readonly argv: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  readonly cwd: string;
}

/** Who the shell runs as (what `whoami`, `~`, `$HOSTNAME` and `$UID` say). */
export interface Identity {
  readonly user: string;
  readonly uid: number;
  readonly gid: number;
  readonly home: string;
  readonly hostname: string;
}

/** What every shell of one call shares. */
export interface Runtime {
  readonly fs: Filesystem;
  readonly limits: KernelLimits;
  readonly budget: Budget;
  readonly cooperate: Cooperate;
  /** Fires when the call is cancelled (timeout, abort, kill). */
  readonly signal: AbortSignal;
  /**
   * Called from long synchronous work (pattern matching, big expansions): throws a
   * {@link CancelControl} once the call's deadline has passed or it was aborted, since no timer
   * can fire while such work holds the event loop.
   */
  checkTime(): void;
  readonly commands: ReadonlyMap<string, RegisteredCommand>;
  /** Every live shell of the call by pid (`kill PID` reaches shells of nested processes too). */
  readonly shells: Map<number, Shell>;
  /** Keep track of concurrent work (process substitutions) so the call can end it. */
  track(work: Promise<unknown>): void;
  /** The registered command living at this absolute path (`/usr/bin/grep`). */
  commandAt(path: string): RegisteredCommand | undefined;
  /** The external-command gate: `undefined` when nothing may leave the kernel. */
  readonly external: ExternalGate | undefined;
  readonly identity: Identity;
  /** What `curl` and `wget` may fetch; `undefined`: no network. */
  readonly network?: NetworkPolicy | undefined;
  /** `RANDOM`'s generator: the next 15-bit value. */
  random(): number;
  /** Reseed `RANDOM` (assigning to it). */
  seedRandom(seed: number): void;
  /** A new process id (for `$!`, `BASHPID`). */
  nextPid(): number;
  /** Epoch milliseconds when `SECONDS` was last reset. */
  secondsBase: number;
  /** Non-fatal messages of the kernel itself (parser warnings go to stderr instead). */
  readonly now: () => number;
  /** Patient holds on the call's timeout. */
  readonly watchdog: WatchdogLike | undefined;
  /** Trash for destructive writes under `set -o trash`. */
  readonly trash: TrashLike | undefined;
}

/** The part of the watchdog a command sees. */
export interface WatchdogLike {
  hold(budgetMs: number, reason: string): { release(): void };
}

/** Snapshot a file's content before it is truncated or removed. */
export interface TrashLike {
  snapshot(fs: Filesystem, path: string, reason: string): Promise<void>;
}

export interface ExternalGate {
  /** Whether `argv` may run on the host. */
  allows(argv: readonly string[]): boolean;
  /** Run it; resolves with the exit status. */
  run(
    run: ExternalRun,
    io: {
      readonly stdin: import('../../commands/command.js').ByteReader;
      readonly stdout: import('../../commands/command.js').ByteWriter;
      readonly stderr: import('../../commands/command.js').ByteWriter;
      readonly signal: AbortSignal;
    },
  ): Promise<number>;
}

export class Shell {
  vars: VarStore;
  functions: CowMap<FunctionEntry>;
  aliases: CowMap<AliasEntry>;
  opts: ShellOptions;
  positional: readonly string[];
  arg0: string;
  cwd: string;
  fds: FdTable;
  /** Signal name (`EXIT`, `ERR`, `INT`, ...) → command; `''` ignores it. */
  traps: Map<string, string>;
  /** The traps of the shell this subshell was forked from (`trap -p` shows them until one is set). */
  parentTraps: Map<string, string> | undefined;
  jobs: JobTable;
  /** `$?` */
  status = 0;
  // Empty until the first pipeline runs, as in bash.
  pipeStatus: readonly number[] = [];
  /** `$!` */
  lastBackground: number | undefined;
  /** `BASHPID` */
  pid: number;
  /** `$$` */
  readonly rootPid: number;
  /** The kernel call this shell runs for (children inherit it; a nested `sh -c` too). */
  callTag: object | undefined = undefined;
  subshellLevel = 0;
  callStack: CallFrame[] = [];
  loopDepth = 0;
  /** Inside a condition (`if`, `while`, `&&`, `!`): `set -e` does not fire. */
  errexitSuppressed = 0;
  /** The command under a running `!`: its own failure neither trips `set -e` nor the ERR trap. */
  negatedLeaf: Command | undefined = undefined;
  /** Line of the command being run (`LINENO`). */
  line = 0;
  /** The file being run, for messages and `BASH_SOURCE` (`''` for the `-c` string). */
  source = '';
  dirStack: string[] = [];
  umask = 0o022;
  /** `$_` */
  lastArg = '';
  /** Depth of function calls, `source` and `eval`. */
  callDepth = 0;
  /** Set while a trap's command runs (a trap does not trigger itself). */
  /** The command being run, for `$BASH_COMMAND` (kept while a trap runs). */
  currentCommand: Command | undefined;
  inTrap: string | undefined;
  /** `getopts` position inside a bundle of letters (`-abc`). */
  getoptsCharIndex = 1;
  getoptsLastOptind = 1;
  /** Shell runs `return` at the top of a sourced file / function. */
  sourceDepth = 0;
  /** Frees this shell's slot in the process budget. */
  private releaseProcess: (() => void) | undefined;
  /** Hash table for `hash`: name → path. */
  hashed: Map<string, string> = new Map();
  /** A stage of a pipeline or a `( )`: exits end only this shell. */
  isSubshell = false;
  /** Cancellation of this shell: the call's, or its job's (`kill %1`). */
  signal: AbortSignal;
  /** Signals sent to this shell (`kill -USR1 $$`) waiting for the next step. */
  pendingSignals: string[] = [];
  /** Descriptors of process substitutions opened by the commands being run. */
  procSubs: number[] = [];
  /** The table each of {@link procSubs} was opened in. */
  procSubTables: FdTable[] = [];
  /** The status of the last command substitution of the command being run. */
  lastSubStatus: number | undefined;
  /** Warnings to print at the next step (raised where no output is at hand). */
  warnings: string[] = [];
  /** An interactive shell (`bash -i`): errors do not end it. */
  interactive = false;
  /** The temporary scope of `v=x f` while f is being called (its function scope adopts it). */
  callTemp: Scope | undefined = undefined;
  /** The number of the top-level command being run (the prompt's `\#`). */
  commandNumber = 1;
  /** `ulimit`'s resource limits. */
  limitsTable: ResourceLimits = new ResourceLimits();
  /** The command history. */
  history: History = new History();
  /** `complete` specifications by command name. */
  completions: Map<string, import('../builtins/completion.js').CompSpec> = new Map();
  /** `enable -n NAME` */
  disabledBuiltins: Set<string> = new Set();
  /** How the script was given: messages and `BASH_SOURCE` depend on it. */
  mode: 'c' | 'stdin' | 'file' = 'c';
  /** True for a `$( )` shell (for `inherit_errexit`). */
  isCommandSub = false;
  /** Nesting of command substitutions (`set -x` prints `++` inside one). */
  cmdSubDepth = 0;

  constructor(
    readonly rt: Runtime,
    init: {
      readonly jobs: JobTable;
      readonly pid: number;
      readonly cwd: string;
      readonly arg0: string;
    },
  ) {
    this.vars = VarStore.create();
    this.functions = CowMap.create();
    this.aliases = CowMap.create();
    this.opts = new ShellOptions();
    this.positional = [];
    this.arg0 = init.arg0;
    this.cwd = init.cwd;
    this.fds = FdTable.root();
    this.traps = new Map();
    this.jobs = init.jobs;
    this.pid = init.pid;
    this.rootPid = init.pid;
    this.signal = rt.signal;
    rt.shells.set(init.pid, this);
  }

  /**
   * A subshell: a copy-on-write copy of this shell's state. Traps are reset (ignored signals stay
   * ignored), as in bash; the caller disposes it when the subshell ends.
   */
  fork(jobs: JobTable): Shell {
    const release = this.rt.budget.process();
    // A spread copies the fields in one step (assigning them one by one to an empty object is
    // several times slower); the prototype makes it a Shell.
    const child = Object.setPrototypeOf({ ...this }, Shell.prototype) as Shell;
    child.vars = this.vars.fork();
    child.functions = this.functions.fork();
    child.aliases = this.aliases.fork();
    child.opts = this.opts.copy();
    child.fds = this.fds.fork();
    // Ignored signals stay ignored; ERR is inherited with `set -E`, DEBUG and RETURN with `set -T`.
    child.traps =
      this.traps.size === 0
        ? new Map()
        : new Map(
            [...this.traps].filter(
              ([name, action]) =>
                action === '' ||
                (name === 'ERR' && this.opts.o('errtrace')) ||
                ((name === 'DEBUG' || name === 'RETURN') && this.opts.o('functrace')),
            ),
          );
    child.jobs = jobs;
    child.pid = this.rt.nextPid();
    child.subshellLevel = this.subshellLevel + 1;
    child.callStack = [...this.callStack];
    child.dirStack = [...this.dirStack];
    child.hashed = this.hashed.size === 0 ? new Map() : new Map(this.hashed);
    child.releaseProcess = release;
    this.rt.shells.set(child.pid, child);
    child.parentTraps = this.traps.size > 0 ? this.traps : this.parentTraps;
    child.isSubshell = true;
    // bash starts a subshell outside any loop: `( continue )` in a loop only complains.
    child.loopDepth = 0;
    child.isCommandSub = false;
    child.inTrap = undefined;
    child.pendingSignals = [];
    child.warnings = [];
    child.procSubs = [];
    child.procSubTables = [];
    child.disabledBuiltins = new Set(this.disabledBuiltins);
    child.completions = this.completions.size === 0 ? new Map() : new Map(this.completions);
    child.history = this.history.copy();
    child.limitsTable = this.limitsTable.copy();
    if (child.subshellLevel > this.rt.limits.maxSubshellDepth) {
      child.dispose();
      throw limitReached(this.rt.limits, 'maxSubshellDepth');
    }
    return child;
  }

  /** Levels of command substitution above this shell (for `set -x`'s repeated `PS4`). */
  subshellDepthForTrace(): number {
    return this.cmdSubDepth + 1;
  }

  /** End of a subshell: drop its descriptors (closing pipe ends) and detach its scopes. */
  dispose(): void {
    this.fds.dispose();
    this.vars.dispose();
    this.functions.dispose();
    this.aliases.dispose();
    this.releaseProcess?.();
    this.releaseProcess = undefined;
    if (this.rt.shells.get(this.pid) === this) this.rt.shells.delete(this.pid);
  }
}
