/**
 * One sandbox session: namespaces several commands share, so that they see each other as the
 * processes of one machine do (a server one command starts answers the next on loopback, `ps`
 * lists them all, `/tmp` is one directory), while every command still gets its own bubblewrap.
 *
 * A holder owns the namespaces: bubblewrap with new PID, IPC and (network denied) network
 * namespaces and the policy's whole mount plan, running a Perl init as PID 1 (`--as-pid-1`) that
 * reaps orphans (SIGCHLD ignored), waits on its stdin and, at end of input, sends TERM to every
 * process of the session, gives them the grace, and exits: the kernel then kills whatever is left
 * (the end of a PID namespace's init is the end of all its processes). Its stdin is a pipe from the
 * host, so the session ends with its owner, SIGKILLed or not. The holder is as confined as any
 * command (the same mounts and Unix socket filter), so a command that traces it gains nothing.
 *
 * A command enters with `nsenter` (the network and IPC namespaces; unprivileged, first the
 * holder's user namespace) and then its own bubblewrap joins the PID namespace (`--pidns`): a
 * plain `setns` into the running sandbox would keep the caller's capabilities and skip the
 * seccomp filter and `no_new_privs`, so bubblewrap still builds every per-command guarantee. The
 * session's `/tmp` is a host directory bound into the holder and every command.
 * @module
 */
import { checkPolicyBwrap } from './bwrap-availability.js';
import { planMounts } from './bwrap-mounts.js';
import { findExecutable } from './find-executable.js';
import type { PlaceholderLease } from './placeholders.js';
import type { SandboxPolicy } from './types.js';
import { checkSeccomp, SECCOMP_FD, SECCOMP_FIX, seccompProgramPath } from './unix-sockets.js';

/** The descriptor a command's bubblewrap reads the session's PID namespace from. */
export const PIDNS_FD = 5;

/** The descriptor the holder's bubblewrap reports its child's pid on (`--info-fd`). */
export const HOLDER_INFO_FD = 6;

/** What the holder prints on stdout once its sandbox is built. */
export const HOLDER_READY = 'berth-session-ready';

// PID 1 of the session. Signals from inside the namespace cannot reach it (it has no handlers), and
// SIGCHLD ignored makes the kernel reap every orphan. `kill 0, -1` is true while any other process
// of the namespace lives; the grace is counted in 50 ms steps (no module, so no hires clock).
const INIT = [
  '$0 = "berth-session"; $SIG{CHLD} = "IGNORE"; $| = 1;',
  `print "${HOLDER_READY}\\n";`,
  '1 while sysread(STDIN, my $b, 512);',
  'kill "TERM", -1; my $steps = int($ARGV[0] / 50) + 1;',
  'while ($steps-- > 0 && kill(0, -1)) { select(undef, undef, undef, 0.05); }',
  'exit 0;',
].join(' ');

/** Where a session's namespaces are, for the commands that join it. */
export interface SessionNamespaces {
  /** Host pid of the holder's PID 1. */
  readonly pid: number;
  /** Commands enter the holder's user namespace first (an unprivileged session). */
  readonly userNamespace: boolean;
  /** The holder has its own network namespace (the policy denies the network). */
  readonly network: boolean;
  /** Host directory every command sees as `/tmp`. */
  readonly tmp: string;
}

/** How the holder is built. */
export interface HolderOptions {
  /** The handle's starting directory (kept reachable when the session's /tmp covers it). */
  readonly cwd: string;
  /** Host directory to bind as `/tmp`. */
  readonly tmp: string;
  /** Grace the holder gives the session's processes between TERM and its own exit. */
  readonly graceMs: number;
}

/** The holder's argv, or why no session can be had here. */
export type HolderPlan =
  | { readonly ok: true; readonly argv: string[]; readonly placeholders: PlaceholderLease }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

/** The argv of a session holder for `policy` (Linux). */
export function planSessionHolder(policy: SandboxPolicy, options: HolderOptions): HolderPlan {
  const isRoot = process.getuid?.() === 0;
  const perl = findExecutable('perl', process.env.PATH);
  if (perl === null) {
    return {
      ok: false,
      reason: 'a sandbox session needs Perl for its init process, and no perl is on PATH',
      fix: 'install perl (the perl-base package on Debian), or create the context without `session`',
    };
  }
  const bwrap = checkPolicyBwrap(policy);
  if (!bwrap.ok) return bwrap;
  const flags = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--as-pid-1', '--new-session'];
  if (policy.network === 'deny') flags.push('--unshare-net');
  // Unprivileged, the holder becomes root of a user namespace of its own (mapped to this user):
  // commands join it as that root, so their bubblewrap may join the session's namespaces.
  if (!isRoot) flags.push('--unshare-user', '--uid', '0', '--gid', '0');
  flags.push('--cap-drop', 'ALL');
  const filter = (policy.unixSockets ?? 'deny') === 'deny';
  const program = filter ? seccompProgramPath() : null;
  if (filter) {
    const seccomp = checkSeccomp(bwrap.path, ['--die-with-parent', '--unshare-pid']);
    if (!seccomp.ok || program === null) {
      return { ok: false, reason: seccomp.ok ? 'no Unix socket filter' : seccomp.reason, fix: SECCOMP_FIX };
    }
  }
  const mounts = planMounts(policy, options.cwd, [], options.tmp);
  if (!mounts.ok) return mounts;
  const launcher = program === null ? [] : ['/bin/sh', '-c', `exec "$@" ${SECCOMP_FD}<"$0"`, program];
  return {
    ok: true,
    placeholders: mounts.placeholders,
    argv: [
      ...launcher,
      bwrap.path,
      ...flags,
      ...(program !== null ? ['--seccomp', String(SECCOMP_FD)] : []),
      '--info-fd',
      String(HOLDER_INFO_FD),
      ...mounts.args,
      '--chdir',
      '/',
      '--',
      perl,
      '-e',
      INIT,
      String(Math.max(0, Math.round(options.graceMs))),
    ],
  };
}

/** The `nsenter` that puts a command's bubblewrap into the session's namespaces (all but PID). */
export function sessionEnterPrefix(session: SessionNamespaces): string[] {
  const nsenter = findExecutable('nsenter', process.env.PATH) ?? 'nsenter';
  const at = (name: string) => `/proc/${session.pid}/ns/${name}`;
  return [
    nsenter,
    ...(session.userNamespace ? ['--preserve-credentials', `--user=${at('user')}`] : []),
    ...(session.network ? [`--net=${at('net')}`] : []),
    `--ipc=${at('ipc')}`,
    '--',
  ];
}

/** The session's PID namespace, as the launcher opens it on {@link PIDNS_FD}. */
export function sessionPidNamespace(session: SessionNamespaces): string {
  return `/proc/${session.pid}/ns/pid`;
}
