/**
 * Giving a sandboxed terminal's shell a foreground process group it can see.
 *
 * The terminal's foreground group at start belongs to bubblewrap, outside the sandbox's PID
 * namespace, so inside it reads as group 0. A job-control shell remembers that group to hand the
 * terminal back when it exits: bash fails quietly, dash reports `Cannot set tty process group (No
 * such process)` and exits 2 instead of its real status. So the shell is started through a tiny
 * helper that moves it into a process group of its own (inside the namespace) and makes that group
 * the terminal's foreground group, then execs it: the group the shell remembers exists. No portable
 * command does `setpgid` + `tcsetpgrp`, so the helper is a Perl one-liner (core `POSIX` module);
 * without Perl the shell starts as before, and the preflight warns.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { findExecutable } from './find-executable.js';

// `exec { $ARGV[0] } @ARGV` never goes through a shell, whatever the arguments hold. SIGTTOU is
// ignored only while the new group takes the terminal (a background group asking would be stopped).
const SCRIPT = [
  'use POSIX ();',
  'if (POSIX::setpgid(0, 0)) { local $SIG{TTOU} = "IGNORE";',
  ' POSIX::tcsetpgrp(0, POSIX::getpgrp()) or warn "berth: cannot take the terminal foreground: $!\\n"; }',
  'else { warn "berth: cannot start a process group: $!\\n"; }',
  'exec { $ARGV[0] } @ARGV or die "berth: cannot run $ARGV[0]: $!\\n";',
].join(' ');

const support = new Map<string, boolean>();

/** The argv prefix that starts a terminal's shell in its own foreground group; null without Perl. */
export function terminalForegroundPrefix(pathValue: string | undefined): readonly string[] | null {
  const perl = findExecutable('perl', pathValue);
  if (perl === null) return null;
  let supported = support.get(perl);
  if (supported === undefined) {
    const check = spawnSync(perl, ['-e', 'use POSIX (); exit 0'], { stdio: 'ignore', timeout: 5000 });
    supported = check.status === 0;
    support.set(perl, supported);
  }
  return supported ? [perl, '-e', SCRIPT, '--'] : null;
}
