/**
 * The kernel's process ids and live shells, shareable between kernels. Kernels given one table
 * hand out pids from one sequence and see each other's shells, as processes of one machine do:
 * `kill -0 PID` answers for a shell of another kernel, and `kill PID` reaches it. A host running
 * several kernels over one filesystem (the virtual context, one kernel per handle) shares one
 * table so that a pid means the same process to every one of them.
 * @module
 */
import type { Shell } from './runtime/shell.js';

/** First pid handed out, plus one (low pids look like system processes). */
const FIRST_PID = 100;

export class ProcessTable {
  private last = FIRST_PID;
  /** Every live shell by pid. */
  readonly shells = new Map<number, Shell>();

  /** A new process id, never handed out before by this table. */
  nextPid(): number {
    this.last += 1;
    return this.last;
  }

  /** Whether a shell with this pid is alive. */
  has(pid: number): boolean {
    return this.shells.has(pid);
  }

  /** Live shells. */
  get size(): number {
    return this.shells.size;
  }
}
