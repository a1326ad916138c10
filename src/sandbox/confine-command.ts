/**
 * Confining one command: argv in, argv out (or why not). Never the bare argv: where the sandbox
 * cannot be applied the answer is `{ ok: false }` and the caller runs nothing.
 * @module
 */
import { isAbsolute } from 'node:path';
import { knownOptions, pathOption } from '../contract/validate-options.js';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { checkPolicyBwrap, namespaceFlags } from './bwrap-availability.js';
import { planMounts } from './bwrap-mounts.js';
import { isExecutableFile } from './find-executable.js';
import { CONFINE_OPTION_KEYS } from './option-keys.js';
import { generateSandboxExecProfile, SANDBOX_EXEC_PATH, sandboxExecArgv } from './sandbox-exec-profile.js';
import { PIDNS_FD, type SessionNamespaces, sessionEnterPrefix, sessionPidNamespace } from './session.js';
import { termGraceWrap } from './term-grace.js';
import { terminalForegroundPrefix } from './terminal-foreground.js';
import type { Confinement, SandboxPolicy } from './types.js';
import { checkSeccomp, SECCOMP_FD, SECCOMP_FIX, seccompProgramPath } from './unix-sockets.js';
import { validatePolicy } from './validate-policy.js';
import { createStatusFile, STATUS_FD, type StatusFile, waitStatusPrefix } from './wait-status.js';

/** Options for {@link confineCommand}. */
export interface ConfineOptions {
  /** Absolute directory the command starts in. */
  readonly cwd: string;
  /**
   * The command runs on a terminal the caller allocated: keep it as the controlling terminal (no
   * new session), so job control works. See docs/sandbox.md on the TIOCSTI tradeoff.
   */
  readonly terminal?: boolean | undefined;
}

/**
 * Wrap `argv` so it runs inside the OS sandbox described by `policy`: bubblewrap on Linux,
 * sandbox-exec on macOS. Returns the argv to spawn instead, or `{ ok: false, reason, fix }` when the
 * sandbox cannot be applied here; the caller must then run nothing (berth reports exit 127).
 * The bubblewrap availability check runs once per process and flag set; later calls cost a PATH
 * lookup and a few `stat`s.
 * @throws InvalidArgumentError for a malformed policy, an empty argv, or a relative cwd.
 */
export function confineCommand(
  policy: SandboxPolicy,
  argv: readonly string[],
  options: ConfineOptions,
): Confinement {
  validatePolicy(policy);
  checkArgv(argv);
  if (typeof options === 'object' && options !== null) {
    knownOptions(options, 'options', CONFINE_OPTION_KEYS, 'confineCommand');
    if (typeof options.cwd === 'string') pathOption(options.cwd, 'cwd', true);
  }
  if (typeof options?.cwd !== 'string' || !isAbsolute(options.cwd)) {
    throw new InvalidArgumentError(
      'cwd',
      `expected an absolute directory, got ${describeValue(options?.cwd)}`,
    );
  }
  switch (process.platform) {
    case 'linux':
      return confineWithBubblewrap(policy, argv, options);
    case 'darwin':
      return confineWithSandboxExec(policy, argv);
    default:
      return {
        ok: false,
        reason: `berth has no OS sandbox for the platform "${process.platform}" (bubblewrap on Linux, sandbox-exec on macOS)`,
        fix: 'run the commands in the docker context for isolation on this platform, or create the context without a sandbox policy',
      };
  }
}

/**
 * What a caller that prepared namespaces itself adds: roots bound writable without read-only names
 * and arguments for bubblewrap (a workspace overlay mounted over its own path), or the sandbox
 * session the command joins (its PID, IPC and network namespaces and its /tmp).
 */
export interface BubblewrapExtras {
  readonly mergedRoots?: readonly string[];
  readonly args?: readonly string[];
  readonly session?: SessionNamespaces;
}

/** Linux: the bubblewrap argv for `argv` under `policy`. */
export function confineWithBubblewrap(
  policy: SandboxPolicy,
  argv: readonly string[],
  options: ConfineOptions,
  extras: BubblewrapExtras = {},
): Confinement {
  const isRoot = process.getuid?.() === 0;
  const bwrap = checkPolicyBwrap(policy);
  if (!bwrap.ok) return bwrap;
  const newSession = options.terminal !== true;
  const hostFlags = namespaceFlags({ isRoot, network: policy.network, newSession });
  const session = extras.session;
  // In a session the command runs as root of the session's user namespace (or of the host): no
  // namespace of its own but the mounts, every capability dropped all the same. No
  // `--die-with-parent`: with `--pidns`, bubblewrap forks the sandbox's process from a short-lived
  // intermediate and that process arms its parent-death signal while the intermediate may still be
  // exiting, so a loaded host sometimes saw the command SIGKILLed before it ran (exit 137, no
  // output). The command's end never depended on it: the supervisor (or the runtime's tree) ends
  // the tree, and the holder ends the whole session when the host goes.
  const flags = session
    ? ['--cap-drop', 'ALL', '--pidns', String(PIDNS_FD), ...(newSession ? ['--new-session'] : [])]
    : hostFlags;
  const filter = (policy.unixSockets ?? 'deny') === 'deny';
  if (filter) {
    const seccomp = checkSeccomp(bwrap.path, hostFlags);
    if (!seccomp.ok) return { ok: false, reason: seccomp.reason, fix: SECCOMP_FIX };
  }
  const mounts = planMounts(policy, options.cwd, extras.mergedRoots, session?.tmp);
  if (!mounts.ok) return mounts;
  // Terminals keep their shell right under bubblewrap (job control); other commands get the waiter
  // that reports their real wait status, which also restores TERM and HUP inside.
  const waiter = options.terminal === true ? null : waitStatusPrefix(process.env.PATH, session !== undefined);
  const grace = waiter === null ? termGraceWrap(process.env.PATH) : null;
  const foreground = options.terminal === true ? terminalForegroundPrefix(process.env.PATH) : null;
  // One /bin/sh both ignores TERM/HUP for bubblewrap and opens the filter, the status file and the
  // session's PID namespace.
  const program = filter ? seccompProgramPath() : null;
  const status: StatusFile | null = waiter !== null ? createStatusFile() : null;
  const redirects: Redirect[] = [];
  if (program !== null) redirects.push([SECCOMP_FD, '<', program]);
  if (status !== null) redirects.push([STATUS_FD, '>', status.path]);
  if (session) redirects.push([PIDNS_FD, '<', sessionPidNamespace(session)]);
  const outer =
    redirects.length > 0
      ? [
          ...fdLauncher(waiter !== null || grace !== null, redirects),
          ...(session ? sessionEnterPrefix(session) : []),
        ]
      : (grace?.outer ?? []);
  const held = status;
  return {
    ok: true,
    release: () => {
      held?.remove();
      mounts.placeholders.release();
    },
    ...(held ? { waitSignal: held.signal } : {}),
    argv: [
      ...outer,
      bwrap.path,
      ...flags,
      ...(extras.args ?? []),
      ...(program !== null ? ['--seccomp', String(SECCOMP_FD)] : []),
      ...mounts.args,
      '--chdir',
      options.cwd,
      '--',
      ...(waiter ?? grace?.inner ?? []),
      ...(foreground ?? []),
      ...argv,
    ],
  };
}

/** A descriptor the launcher opens before bubblewrap starts: number, direction, path. */
type Redirect = readonly [number, '<' | '>', string];

/**
 * The `/bin/sh` that starts bubblewrap (TERM and HUP ignored when asked) with `redirects` open: the
 * Unix socket filter on {@link SECCOMP_FD}, the status file on {@link STATUS_FD}, a session's PID
 * namespace on {@link PIDNS_FD}. The paths travel as arguments, never inside the script.
 */
function fdLauncher(ignoreTermHup: boolean, redirects: readonly Redirect[]): string[] {
  // The first path is $0; the others are saved (s, t) before the shift that leaves the argv.
  const name = (index: number) => (index === 0 ? '$0' : `$${'st'[index - 1]}`);
  const saved = redirects.slice(1).map((_, index) => `${'st'[index]}=$${index + 1}; `);
  const shift =
    redirects.length > 2 ? `shift ${redirects.length - 1}; ` : redirects.length === 2 ? 'shift; ' : '';
  const opens = redirects.map(([fd, direction], index) => `${fd}${direction}"${name(index)}"`).join(' ');
  const script = `${ignoreTermHup ? 'trap "" TERM HUP; ' : ''}${saved.join('')}${shift}exec "$@" ${opens}`;
  return ['/bin/sh', '-c', script, ...redirects.map(([, , path]) => path)];
}

/** macOS: the sandbox-exec argv for `argv` under `policy`. */
export function confineWithSandboxExec(policy: SandboxPolicy, argv: readonly string[]): Confinement {
  if (!isExecutableFile(SANDBOX_EXEC_PATH)) {
    return {
      ok: false,
      reason: `sandbox-exec is not available: ${SANDBOX_EXEC_PATH} is missing or not executable`,
      fix: 'restore the system sandbox-exec (it ships with macOS), or use the docker context for isolation',
    };
  }
  return { ok: true, argv: sandboxExecArgv(generateSandboxExecProfile(policy), argv), release: () => {} };
}

function checkArgv(argv: readonly string[]): void {
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new InvalidArgumentError(
      'argv',
      `expected a non-empty array of strings (program first), got ${describeValue(argv)}`,
    );
  }
  argv.forEach((arg: unknown, index) => {
    if (typeof arg !== 'string' || arg.includes('\0') || (index === 0 && arg.length === 0)) {
      throw new InvalidArgumentError(
        `argv[${index}]`,
        `expected a string without NUL bytes${index === 0 ? ' naming a program' : ''}, got ${describeValue(arg)}`,
      );
    }
  });
}
