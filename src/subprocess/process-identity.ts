/**
 * A process named so that a reused pid is not mistaken for it: `<pid>.<start time>` (the start
 * time in clock ticks from `/proc/<pid>/stat`; `0` where there is no `/proc`). berth tags what a
 * process leaves in its private base with it, so the next process can tell whether the owner is
 * still alive.
 * @module
 */
import { isDefunct, readProcStat } from './proc-stat.js';

/** This process's tag. */
export function ownProcessTag(): string {
  return processTag(process.pid) ?? `${process.pid}.0`;
}

/** The tag of a live process, or undefined when it is gone (or a zombie). */
export function processTag(pid: number): string | undefined {
  const stat = readProcStat(pid);
  if (stat !== undefined) return isDefunct(stat) ? undefined : `${pid}.${stat.startTime}`;
  try {
    process.kill(pid, 0);
    return `${pid}.0`;
  } catch {
    return undefined;
  }
}

/** True when the process `tag` names is still running. */
export function isTagAlive(tag: string): boolean {
  const match = /^(\d+)\.(\d+)$/.exec(tag);
  return match !== null && processTag(Number(match[1])) === tag;
}
