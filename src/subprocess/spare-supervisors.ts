/**
 * Warm spares of the per-command supervisor. A spare is a `berth-supervise --request` started
 * before its command is known: its stdio pipes are the host's, it has set itself up as owner, and
 * it has forked the process that will run the command, which waits for the request (program,
 * arguments, environment, working directory). Taking one costs a write and one wakeup instead of a
 * fork of the host and two execs, so a supervised command starts about as fast as an unsupervised
 * one; the next spare is started while the command runs.
 *
 * One spare is kept per stdio layout in use (at most {@link MAX_LAYOUTS}), started after a command
 * of that layout took the previous one, and retired after {@link IDLE_MS} unused. A spare never keeps
 * the host alive, and dies with the host like every supervisor.
 * @module
 */
import { type ChildProcess, type StdioOptions, spawn as spawnChild } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { STATUS_FD, spareArgs } from './supervisor.js';

const IDLE_MS = 30_000;
const MAX_LAYOUTS = 4;

type Disposition = 'pipe' | 'inherit' | 'ignore';

/** The stdio a command needs: stdin, stdout, stderr. */
export type StdioLayout = readonly [Disposition, Disposition, Disposition];

interface Spare {
  readonly child: ChildProcess;
  readonly timer: NodeJS.Timeout;
}

function streamsOf(child: ChildProcess): (Readable | Writable)[] {
  return child.stdio.filter(
    (stream): stream is Readable | Writable => stream !== null && stream !== undefined,
  );
}

/** Start a supervisor waiting for its request, with `layout` as its command's stdio. */
export function startSpare(supervisor: string, layout: StdioLayout): ChildProcess {
  const stdio: StdioOptions = [...layout, 'pipe'];
  // Its own cwd and environment are never the command's (it gets both in the request): `/` holds no
  // mount busy, and an empty environment leaks nothing into its /proc entry.
  const child = spawnChild(supervisor, spareArgs(), { cwd: '/', env: {}, stdio, detached: true });
  child.on('error', () => {});
  const request = child.stdio[STATUS_FD] as Writable | null;
  // The supervisor may be gone before the request is written (EPIPE): its end tells the rest.
  request?.on('error', () => {});
  return child;
}

function alive(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null && !child.killed;
}

/** The spares of one runtime. */
export class SpareSupervisors {
  private readonly spares = new Map<string, Spare>();
  private closed = false;

  /**
   * A started supervisor for `layout`: a warm spare when one is ready (a new one is started at
   * once), else a fresh one. Referenced again, so it keeps the host alive like any child.
   */
  take(supervisor: string, layout: StdioLayout): ChildProcess {
    const key = `${supervisor}\0${layout.join(' ')}`;
    const spare = this.spares.get(key);
    this.spares.delete(key);
    if (spare) clearTimeout(spare.timer);
    let child: ChildProcess;
    if (spare && alive(spare.child)) {
      child = spare.child;
      child.ref();
      for (const stream of streamsOf(child)) (stream as { ref?: () => void }).ref?.();
    } else {
      if (spare) retire(spare.child);
      child = startSpare(supervisor, layout);
    }
    if (!this.closed) this.keepSpare(key, supervisor, layout);
    return child;
  }

  /** Retire every spare; later takes start fresh supervisors and keep no spare. */
  dispose(): void {
    this.closed = true;
    for (const spare of this.spares.values()) {
      clearTimeout(spare.timer);
      retire(spare.child);
    }
    this.spares.clear();
  }

  private keepSpare(key: string, supervisor: string, layout: StdioLayout): void {
    if (this.spares.size >= MAX_LAYOUTS) {
      const [oldestKey, oldest] = this.spares.entries().next().value as [string, Spare];
      clearTimeout(oldest.timer);
      retire(oldest.child);
      this.spares.delete(oldestKey);
    }
    let child: ChildProcess;
    try {
      child = startSpare(supervisor, layout);
    } catch {
      return; // out of processes or descriptors now: the next command starts its own
    }
    child.unref();
    for (const stream of streamsOf(child)) (stream as { unref?: () => void }).unref?.();
    const timer = setTimeout(() => {
      if (this.spares.get(key)?.child !== child) return;
      this.spares.delete(key);
      retire(child);
    }, IDLE_MS);
    timer.unref();
    this.spares.set(key, { child, timer });
  }
}

/** An empty request: the waiting process exits without running anything, then its supervisor. */
function retire(child: ChildProcess): void {
  const request = child.stdio[STATUS_FD] as Writable | null;
  if (request && !request.destroyed) {
    request.end();
    // Read its last lines to the end, so the socket closes when the supervisor exits.
    (request as unknown as Readable).resume();
  } else if (alive(child)) child.kill('SIGKILL');
  for (const stream of streamsOf(child)) {
    if (stream !== request) (stream as Readable).destroy();
  }
}
