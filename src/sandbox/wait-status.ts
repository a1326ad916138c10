/**
 * The real wait status of a sandboxed command.
 *
 * bubblewrap folds a command's death by signal N into exit code 128+N (its init, its monitor and
 * its `--json-status-fd` alike), so `kill -TERM $$` and `exit 143` look the same from outside. A
 * waiter inside the sandbox sees the raw status: a Perl one-liner without modules (about a
 * millisecond to start) forks the command, waits for it, and when it died of a signal writes the
 * signal's number to a status file berth opened for it on {@link STATUS_FD} before bubblewrap
 * started (the file lives in berth's private base, which commands see read-only). The waiter exits
 * 128+N all the same, so a missing record reads as before. It also takes over what
 * `env --default-signal` did: it keeps TERM and HUP ignored for itself (it must outlive the command
 * to report it) and restores their default in the command. The command never sees the descriptor:
 * the waiter keeps a close-on-exec copy and closes fd 4 before it forks.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { closeSync, readSync } from 'node:fs';
import { type FileIdentity, openPrivateDirectory, type PrivateDirectory } from '../subprocess/private-dir.js';
import { signalName } from '../subprocess/signal-name.js';
import { findExecutable } from './find-executable.js';

/** The descriptor the waiter writes the signal number to. */
export const STATUS_FD = 4;

// `>&4` dups to a descriptor above $^F, which Perl marks close-on-exec; `>&=4` adopts fd 4 itself so
// that closing it closes fd 4. `exec { $ARGV[0] } @ARGV` never goes through a shell.
const SCRIPT = [
  '$SIG{TERM} = $SIG{HUP} = "IGNORE";',
  'my $s; if (open($s, ">&4")) { open(my $f, ">&=4") and close($f); } else { undef $s; }',
  'my $p = fork; defined $p or die "berth: cannot fork: $!\\n";',
  'if ($p == 0) { $SIG{TERM} = $SIG{HUP} = "DEFAULT";',
  ' exec { $ARGV[0] } @ARGV or do { print STDERR "berth: cannot run $ARGV[0]: $!\\n"; exit 127; }; }',
  '1 while waitpid($p, 0) == -1 && $!{EINTR};',
  'my $w = $?; my $n = $w & 127;',
  'if ($n) { if ($s) { syswrite($s, "$n\\n"); close($s); } exit(128 + $n); }',
  'exit($w >> 8);',
].join(' ');

/** `prctl`'s system call number per Node `process.arch` (for PR_SET_CHILD_SUBREAPER, 36). */
const PRCTL: Readonly<Record<string, number>> = { x64: 157, arm64: 167 };

/**
 * The waiter of a command in a sandbox session, where no PID namespace of the command's own ends
 * its leftovers: it is a child subreaper, so what the command orphans stays in the command's tree
 * while the command runs, and once the runtime has sent it TERM (the command is being ended) it
 * waits for all of them too, so the runtime's KILL still finds them. After a plain exit it leaves
 * at once, and what the command left running is the session's.
 */
const SESSION_SCRIPT = SCRIPT.replace(
  '$SIG{TERM} = $SIG{HUP} = "IGNORE";',
  `$SIG{HUP} = "IGNORE"; my $t = 0; $SIG{TERM} = sub { $t = 1 };${
    PRCTL[process.arch] === undefined ? '' : ` syscall(${PRCTL[process.arch]}, 36, 1, 0, 0, 0);`
  }`,
).replace('my $w = $?;', 'my $w = $?; if ($t) { 1 while waitpid(-1, 0) > 0 || $!{EINTR}; }');

const support = new Map<string, boolean>();

/**
 * The argv prefix of the waiter (it goes right after bubblewrap's `--`); null without Perl. With
 * `session`, the variant for a command in a sandbox session.
 */
export function waitStatusPrefix(pathValue: string | undefined, session = false): readonly string[] | null {
  const perl = findExecutable('perl', pathValue);
  if (perl === null) return null;
  const script = session ? SESSION_SCRIPT : SCRIPT;
  const key = `${session}\0${perl}`;
  let supported = support.get(key);
  if (supported === undefined) {
    const check = spawnSync(perl, ['-e', script, '--', '/bin/sh', '-c', 'kill -TERM $$'], {
      stdio: 'ignore',
      timeout: 5000,
    });
    supported = check.status === 128 + 15;
    support.set(key, supported);
  }
  return supported ? [perl, '-e', script, '--'] : null;
}

let directory: PrivateDirectory | undefined;
let counter = 0;

/** One command's status file: where the launcher opens it, how to read it, how to remove it. */
export interface StatusFile {
  /** Absolute path the launcher opens for writing on {@link STATUS_FD}. */
  readonly path: string;
  /** The signal the command died of, as the waiter recorded it; null when it recorded none. */
  readonly signal: () => NodeJS.Signals | null;
  /** Remove the file (idempotent). */
  readonly remove: () => void;
}

/** A fresh, empty status file in this process's private directory for them. */
export function createStatusFile(): StatusFile {
  if (directory === undefined || !directory.inPlace) {
    directory = openPrivateDirectory('berth-sandbox-');
    const made = directory;
    process.once('exit', () => made.remove());
  }
  const dir = directory;
  counter += 1;
  const name = `status-${counter}`;
  const { fd, identity } = dir.createFile(name);
  closeSync(fd);
  let removed = false;
  return {
    path: `${dir.path}/${name}`,
    signal: () => (removed ? null : readSignal(dir, name, identity)),
    remove: () => {
      if (removed) return;
      removed = true;
      try {
        dir.removeFile(name);
      } catch {
        // The directory went away with the process's exit hook: nothing left to remove.
      }
    },
  };
}

function readSignal(dir: PrivateDirectory, name: string, identity: FileIdentity): NodeJS.Signals | null {
  let fd: number;
  try {
    fd = dir.openFile(name, identity);
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(8);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('latin1');
    const match = /^(\d{1,2})\n$/.exec(text);
    return match ? signalName(Number(match[1])) : null;
  } finally {
    closeSync(fd);
  }
}
