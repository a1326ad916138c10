/**
 * The membership of one process tree: the root's process group and session, plus every descendant
 * found by walking parent links in `/proc` — so a child that moved to its own group or session
 * (`setsid`) is still found while its parent lives. Members once seen are remembered by identity
 * (pid + start time), so one orphaned mid-teardown is still signalled and awaited.
 * @module
 */
import {
  isDefunct,
  type ProcStat,
  procAvailable,
  readProcStat,
  scanProcesses,
  scanProcessesShared,
  sharedScanCount,
} from './proc-stat.js';

/** One remembered member. */
interface Identity {
  readonly pid: number;
  readonly startTime: number;
}

/**
 * A root that owns the tree (berth's supervisor): a child subreaper, so every process of the tree
 * stays below it while it runs, and it exits on its own only once none remains. It is never
 * signalled as part of the tree; its own exit ends it.
 */
export interface TreeOwner {
  /** True once the root exited on its own (not killed), which proves no process of the tree remains. */
  readonly emptied: () => boolean;
}

/** A process tree rooted at a process that leads its own process group (spawned detached). */
export class ProcessTree {
  /** Root pid; also the tree's process group id and session id. */
  readonly rootPid: number;
  private readonly rootRunning: () => boolean;
  private readonly owner: TreeOwner | undefined;
  private readonly known = new Map<number, Identity>();

  /**
   * @param rootPid - pid of a group (and session) leader.
   * @param rootRunning - true while the root has not been reaped; its pid cannot be reused until
   * then, so the walk may start from it without checking its identity.
   * @param owner - set when the root is the tree's owner rather than its command (see {@link TreeOwner}).
   */
  constructor(rootPid: number, rootRunning: () => boolean, owner?: TreeOwner) {
    this.rootPid = rootPid;
    this.rootRunning = rootRunning;
    this.owner = owner;
  }

  /** True when the root is an owner that is never signalled with its tree. */
  get owned(): boolean {
    return this.owner !== undefined;
  }

  /** True while the root's process group still has a member (one `kill(-pgid, 0)`). */
  groupAlive(): boolean {
    return signalGroup(this.rootPid, 0);
  }

  /**
   * Every live member other than the root, found now; each one found is remembered. Without
   * `/proc` only the process group is known, and this returns an empty list.
   * @param fresh - walk `/proc` now rather than reuse a scan from the last 2 ms.
   */
  members(fresh = false): ProcStat[] {
    if (!procAvailable) return [];
    const all = fresh ? scanProcesses() : scanProcessesShared();
    const byPid = new Map<number, ProcStat>();
    const children = new Map<number, ProcStat[]>();
    for (const stat of all) {
      byPid.set(stat.pid, stat);
      const list = children.get(stat.ppid);
      if (list) list.push(stat);
      else children.set(stat.ppid, [stat]);
    }
    const found = new Map<number, ProcStat>();
    const queue: ProcStat[] = [];
    const add = (stat: ProcStat) => {
      if (stat.pid === process.pid || found.has(stat.pid)) return;
      found.set(stat.pid, stat);
      queue.push(stat);
    };
    // The kernel does not reuse a pid while a group or session still carries it as its id, so
    // matching them is safe, unless the pid itself now belongs to a new process (our root reaped,
    // everything gone, pid handed out again): then those ids are someone else's.
    const rootRunning = this.rootRunning();
    if (rootRunning || !byPid.has(this.rootPid)) {
      for (const stat of all) {
        if (stat.pgrp === this.rootPid || stat.session === this.rootPid) add(stat);
      }
    }
    for (const identity of this.known.values()) {
      const stat = byPid.get(identity.pid);
      if (stat && stat.startTime === identity.startTime) add(stat);
    }
    if (rootRunning) {
      const root = byPid.get(this.rootPid);
      if (root) add(root);
    }
    while (queue.length > 0) {
      for (const child of children.get(queue.pop()!.pid) ?? []) add(child);
    }
    found.delete(this.rootPid);
    const live: ProcStat[] = [];
    for (const stat of found.values()) {
      if (isDefunct(stat)) continue;
      live.push(stat);
      this.known.set(stat.pid, { pid: stat.pid, startTime: stat.startTime });
    }
    return live;
  }

  /** The root's stat while it runs (not yet reaped), else `undefined`; never an owner's. */
  liveRoot(): ProcStat | undefined {
    return this.rootRunning() && !this.owner ? readProcStat(this.rootPid) : undefined;
  }

  /** True when no process of the tree remains: root reaped, group empty, no remembered member alive. */
  isGone(): boolean {
    if (this.rootRunning()) return false;
    // An owner that exited on its own had no process left below it: nothing to look for.
    if (this.owner?.emptied()) return true;
    // Without /proc the group is all we can see. With it, a full scan also discounts zombies
    // (an unreaped zombie still answers `kill(-pgid, 0)`).
    if (!procAvailable) return !this.groupAlive();
    if (this.knownAlive()) return false;
    // A shared scan may be a moment old; "gone" is final, so confirm it with a fresh one unless
    // this very call just made it.
    const before = sharedScanCount();
    if (this.members().length > 0) return false;
    return sharedScanCount() !== before || this.members(true).length === 0;
  }

  /** Cheap check without a full scan: root reaped, group empty, every remembered member gone. */
  looksGone(): boolean {
    if (this.rootRunning()) return false;
    if (this.owner?.emptied()) return true;
    return !this.groupAlive() && !this.knownAlive();
  }

  /**
   * Send `signal` to the group and to every live member found now (plus the root while running).
   * @returns how many processes or groups were signalled.
   */
  signal(signal: NodeJS.Signals): number {
    if (this.owner) return this.signalBelowOwner(signal);
    let count = 0;
    const members = this.members();
    const rootRunning = this.rootRunning();
    // The group signal is safe while the root runs or while a member we found still carries the
    // group id (without /proc nothing better is known than the group itself).
    let groupSignalled = false;
    if (rootRunning || !procAvailable || members.some((member) => member.pgrp === this.rootPid)) {
      groupSignalled = signalGroup(this.rootPid, signal);
      if (groupSignalled) count++;
      else if (rootRunning && signalPid(this.rootPid, signal)) count++;
    }
    for (const member of members) {
      if (groupSignalled && member.pgrp === this.rootPid) continue; // the group signal reached it
      if (signalPid(member.pid, signal)) count++;
    }
    return count;
  }

  /**
   * An owned tree: every member's process group gets the signal (a group in the tree's sessions
   * holds tree members only, and a group signal also reaches a child forked since the walk), and
   * members in the owner's own group are signalled one by one; the owner never is.
   */
  private signalBelowOwner(signal: NodeJS.Signals): number {
    let count = 0;
    const members = this.members();
    // Just after spawn the owner may not have forked the command yet: it holds a catchable signal
    // until then and passes it on, so the command still gets it, once. KILL would end the owner.
    if (
      signal !== 'SIGKILL' &&
      this.rootRunning() &&
      !members.some((member) => member.ppid === this.rootPid)
    ) {
      if (signalPid(this.rootPid, signal)) count++;
    } else if (signal === 'SIGCONT' && this.rootRunning()) {
      // A stopped owner could neither reap nor report: it must run to see its tree end.
      signalPid(this.rootPid, signal);
    }
    const reached = new Set<number>();
    for (const member of members) {
      if (member.pgrp === this.rootPid || member.pgrp <= 0 || reached.has(member.pgrp)) continue;
      if (signalGroup(member.pgrp, signal)) {
        reached.add(member.pgrp);
        count++;
      }
    }
    for (const member of members) {
      if (!reached.has(member.pgrp) && signalPid(member.pid, signal)) count++;
    }
    return count;
  }

  private knownAlive(): boolean {
    for (const identity of this.known.values()) {
      const stat = readProcStat(identity.pid);
      if (stat && stat.startTime === identity.startTime && !isDefunct(stat)) return true;
      this.known.delete(identity.pid);
    }
    return false;
  }
}

/** `kill(-pgid, signal)`; true when delivered (or when EPERM says the group exists). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  return signalPid(-pgid, signal);
}

/** `kill(pid, signal)`; true when delivered, or EPERM (the target exists but is not ours to signal). */
export function signalPid(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
