/**
 * Telling a supervised command's end from `/proc` before its supervisor has been scheduled to say
 * so. When the command's process has exited, it is a zombie until the supervisor reaps it, and the
 * kernel shows its wait status to a reader allowed to trace it. If it is then the supervisor's only
 * child and the last thread of its group, nothing else of the tree exists (an orphan is reparented
 * to the supervisor before the last thread of the process it left is gone), so the end is known exactly: its status, and an empty tree. On a
 * loaded machine this saves a wait for the supervisor's wakeup on every command; whenever any check
 * fails, the supervisor's own status line decides, as without the probe.
 * @module
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { readProcStat } from './proc-stat.js';

/** How a command ended, read from its zombie. */
export interface ProbedEnd {
  readonly exitCode: number | null;
  /** The signal's number (the caller names it). */
  readonly signo: number | null;
}

const buffer = Buffer.allocUnsafe(4096);
// Real, effective, saved and filesystem ids.
const UIDS = /^Uid:\t(\d+)\t(\d+)\t(\d+)\t(\d+)$/m;
const GIDS = /^Gid:\t(\d+)\t(\d+)\t(\d+)\t(\d+)$/m;

function readSmall(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    // A longer file is not what this module looks for (a supervisor with one child).
    return length === buffer.length ? undefined : buffer.toString('latin1', 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The kernel hides a zombie's status (shows 0) from a reader that may not trace it: only trust it
 * when every uid and gid of the process is this host's own (no set-uid program ran in it).
 */
function sameCredentials(pid: number): boolean {
  const status = readSmall(`/proc/${pid}/status`);
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (status === undefined || uid === undefined || gid === undefined) return false;
  const uids = UIDS.exec(status);
  const gids = GIDS.exec(status);
  return (
    uids !== null &&
    gids !== null &&
    uids.slice(1).every((id) => Number(id) === uid) &&
    gids.slice(1).every((id) => Number(id) === gid)
  );
}

/** Whether `pid`'s thread group is down to its (zombie) leader. */
function lastThread(pid: number): boolean {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.length === 1 && tasks[0] === String(pid);
  } catch {
    return false;
  }
}

/**
 * The end of `command` (a child of the supervisor `owner`) when it has exited and is the only
 * process left below `owner`; `undefined` when that is not known from `/proc` right now.
 */
export function probeCommandEnd(owner: number, command: number): ProbedEnd | undefined {
  const stat = readProcStat(command);
  if (stat?.state !== 'Z' || stat.ppid !== owner || stat.waitStatus === undefined) return undefined;
  if (!sameCredentials(command)) return undefined;
  // A multi-threaded command's main thread is a zombie while its other threads still exit, and
  // its orphans go first to one of those threads, only later to the supervisor: until the zombie
  // is the last thread of its group, the supervisor's child list does not show them yet.
  if (!lastThread(command)) return undefined;
  // Exactly one child, the command (Linux keeps the list per thread; the supervisor has one).
  const children = readSmall(`/proc/${owner}/task/${owner}/children`);
  if (children?.trim() !== String(command)) return undefined;
  const status = stat.waitStatus;
  const signo = status & 0x7f;
  return signo === 0 ? { exitCode: (status >> 8) & 0xff, signo: null } : { exitCode: null, signo };
}
