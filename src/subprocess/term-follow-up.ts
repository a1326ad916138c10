/**
 * The SIGTERM a process could not take yet. A member that ignores SIGTERM when the tree is told to
 * end drops the signal; if it restores the default a moment later (a wrapper that starts with TERM
 * ignored and restores it just before running the real command, as the OS sandbox does), the TERM
 * is lost and only the KILL after the grace period ends the tree. This follow-up delivers it once
 * the member can act on it: during the grace period, a member seen ignoring TERM, or a descendant of
 * one that appeared later, gets SIGTERM as soon as it no longer ignores it. Offspring of a member
 * that already took its TERM (a trap handler's cleanup commands) are left alone.
 * @module
 */
import { ignoresSignal, type ProcStat } from './proc-stat.js';
import { type ProcessTree, signalPid } from './process-tree.js';

const SIGTERM_NUMBER = 15;

interface Entry {
  readonly startTime: number;
  /** `waiting`: ignored the TERM so far; `done`: took it (or is not ours to signal). */
  state: 'waiting' | 'done';
  /** The poll in which a follow-up TERM went out (its existing children get one too); -1 if none. */
  sentInPoll: number;
}

/** Tracks one terminating tree's members that have not taken their SIGTERM yet. */
export class TermFollowUp {
  private readonly tree: ProcessTree;
  private readonly entries = new Map<number, Entry>();
  private poll = 0;
  private waiting = 0;
  /** An owned tree whose owner had not started the command when the TERM went out. */
  private commandPending = false;
  /** The owner's command was already there before the TERM went out. */
  private readonly commandSeen: boolean;
  /** Members sent a follow-up TERM in the last poll, to check that it was not dropped. */
  private delivered: number[] = [];

  /** Record who ignores SIGTERM now: call right before the tree's SIGTERM goes out. */
  constructor(tree: ProcessTree) {
    this.tree = tree;
    const stats = this.snapshot();
    this.commandSeen = stats.some((stat) => stat.ppid === tree.rootPid);
    for (const stat of stats) {
      const ignoring = ignoresSignal(stat.pid, SIGTERM_NUMBER) === true;
      this.set(stat, ignoring ? 'waiting' : 'done', -1);
    }
  }

  /**
   * Call right after the SIGTERM went out: a member that ignores it now may have started ignoring
   * it just before the signal landed (a wrapper setting up), so it waits too. Ignoring before or
   * after counts; the price of the rare member that stopped ignoring in between is a second TERM.
   */
  signalled(): void {
    const stats = this.snapshot();
    // The owner passes that TERM on once it has forked the command, which may then ignore it. A
    // command forked between the walk before the signal and this one counts as pending too: it may
    // not have been signalled, and seeing it not ignoring TERM now says nothing about the forward.
    if (this.tree.owned && !this.commandSeen) {
      this.commandPending = true;
      this.waiting++;
    }
    for (const stat of stats) {
      if (this.commandPending && stat.ppid === this.tree.rootPid) continue;
      const known = this.entries.get(stat.pid);
      if (known?.startTime === stat.startTime && known.state === 'waiting') continue;
      // A process new since the walk before the signal may not have been signalled: unless it
      // ignores TERM (then it waits), the next poll decides by its parent, as for later forks.
      if (ignoresSignal(stat.pid, SIGTERM_NUMBER) === true) this.set(stat, 'waiting', -1);
    }
  }

  /** One grace-period poll: deliver SIGTERM to members that stopped ignoring it. Cheap when none wait. */
  check(): void {
    if (this.waiting === 0 && this.delivered.length === 0) return;
    this.poll++;
    const stats = this.snapshot();
    const byPid = new Map(stats.map((stat) => [stat.pid, stat]));
    const recheck = this.delivered;
    this.delivered = [];
    for (const pid of recheck) {
      const entry = this.entries.get(pid);
      // A TERM sent in the instant the process began ignoring it was dropped: it waits again (and
      // its children, a wrapper's command, are owed the TERM as usual).
      if (
        entry?.state === 'done' &&
        byPid.get(pid)?.startTime === entry.startTime &&
        ignoresSignal(pid, SIGTERM_NUMBER) === true
      ) {
        entry.state = 'waiting';
        this.waiting++;
      }
    }
    const visiting = new Set<number>();
    const decide = (stat: ProcStat): Entry | undefined => {
      const known = this.entries.get(stat.pid);
      if (known && known.startTime === stat.startTime) {
        if (known.state === 'waiting' && ignoresSignal(stat.pid, SIGTERM_NUMBER) === false) {
          this.deliver(stat.pid, known);
        }
        return known;
      }
      if (visiting.has(stat.pid)) return undefined;
      visiting.add(stat.pid);
      const parentStat = byPid.get(stat.ppid);
      const parent = parentStat ? decide(parentStat) : undefined;
      // Owed a TERM: its parent never took one, or took one just now (this child existed then).
      const owed = parent !== undefined && (parent.state === 'waiting' || parent.sentInPoll === this.poll);
      if (!owed) return this.set(stat, 'done', -1);
      const entry = this.set(stat, 'waiting', -1);
      if (ignoresSignal(stat.pid, SIGTERM_NUMBER) === false) this.deliver(stat.pid, entry);
      return entry;
    };
    if (this.commandPending) this.adoptCommand(stats);
    for (const stat of stats) decide(stat);
  }

  /**
   * The command the owner forked after the TERM went out. The owner passes the TERM on, but when
   * it does is its scheduler's business: a command that can take a TERM now gets one from here
   * too (a second one only in this start-up race), and one that ignores it waits like any other
   * member (its later children are then owed a TERM, as usual).
   */
  private adoptCommand(stats: readonly ProcStat[]): void {
    const command = stats.find((stat) => stat.ppid === this.tree.rootPid && !this.entries.has(stat.pid));
    if (!command) return;
    this.commandPending = false;
    this.waiting--;
    const entry = this.set(command, 'waiting', -1);
    if (ignoresSignal(command.pid, SIGTERM_NUMBER) !== true) this.deliver(command.pid, entry);
  }

  private deliver(pid: number, entry: Entry): void {
    signalPid(pid, 'SIGTERM');
    entry.state = 'done';
    entry.sentInPoll = this.poll;
    this.waiting--;
    this.delivered.push(pid);
  }

  private set(stat: ProcStat, state: Entry['state'], sentInPoll: number): Entry {
    const previous = this.entries.get(stat.pid);
    if (previous?.state === 'waiting') this.waiting--;
    const entry: Entry = { startTime: stat.startTime, state, sentInPoll };
    this.entries.set(stat.pid, entry);
    if (state === 'waiting') this.waiting++;
    return entry;
  }

  /** Root and members, from the walk of `/proc` shared by every tree terminating at this moment. */
  private snapshot(): ProcStat[] {
    const root = this.tree.liveRoot();
    const members = this.tree.members();
    return root ? [root, ...members] : members;
  }
}
