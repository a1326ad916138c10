/**
 * Background jobs of one shell: `cmd &` runs concurrently in the same kernel; `$!`, `wait`
 * (with `-n`), `jobs`, `kill %1` and the `%n` job specs find them here.
 * @module
 */

export type JobState = 'Running' | 'Done' | 'Exit' | 'Killed' | 'Terminated' | 'Stopped';

export interface Job {
  readonly id: number;
  readonly pid: number;
  /** The command's text, as `jobs` shows it. */
  readonly command: string;
  /** Settles with the job's status. */
  readonly done: Promise<number>;
  status: number | undefined;
  /** The signal that ended it (for `jobs`: `Terminated`, `Killed`). */
  signal: string | undefined;
  /** End it (kill): the job's shells see the signal at their next step. */
  readonly kill: (signal: string) => void;
  /** `jobs` already reported it as done. */
  reported: boolean;
  /** `wait` already collected it. */
  waited: boolean;
}

export class JobTable {
  private readonly list: (Job | undefined)[] = [];
  /** Statuses of jobs that ended, by pid, for `wait PID` after the fact. */
  private readonly finished = new Map<number, number>();
  /** The parent's jobs a subshell still lists (`jobs | cat`, `$(jobs -p)`) but does not wait for. */
  private readonly inherited: ReadonlySet<Job>;
  current: number | undefined;
  previous: number | undefined;

  /** A table for a subshell of the shell owning `parent` (none: a new process). */
  constructor(parent?: JobTable) {
    if (parent === undefined) {
      this.inherited = new Set();
      return;
    }
    this.list = [...parent.list];
    this.inherited = new Set(parent.all());
    this.current = parent.current;
    this.previous = parent.previous;
  }

  add(make: (id: number) => Job): Job {
    const id = this.list.length + 1;
    const job = make(id);
    this.list.push(job);
    this.previous = this.current;
    this.current = id;
    void job.done.then((status) => {
      job.status = status;
      this.finished.set(job.pid, status);
    });
    return job;
  }

  all(): Job[] {
    return this.list.filter((j): j is Job => j !== undefined);
  }

  /** The jobs this shell started itself (not those a subshell inherited to list). */
  own(): Job[] {
    return this.all().filter((j) => !this.inherited.has(j));
  }

  isInherited(job: Job): boolean {
    return this.inherited.has(job);
  }

  /** The running jobs this shell started (what `wait` waits for). */
  running(): Job[] {
    return this.all().filter((j) => j.status === undefined && !this.inherited.has(j));
  }

  byId(id: number): Job | undefined {
    return this.list[id - 1];
  }

  byPid(pid: number): Job | undefined {
    return this.all().find((j) => j.pid === pid);
  }

  /** The status of a job (running or ended) with this pid, if it was one of ours. */
  finishedStatus(pid: number): number | undefined {
    return this.finished.get(pid);
  }

  /** Resolve a job spec: `%1`, `%%`, `%+`, `%-`, `%name`, `%?text`. */
  resolve(spec: string): Job | undefined {
    if (spec === '%%' || spec === '%+' || spec === '%')
      return this.current === undefined ? undefined : this.byId(this.current);
    if (spec === '%-') return this.previous === undefined ? undefined : this.byId(this.previous);
    const body = spec.slice(1);
    if (/^[0-9]+$/.test(body)) return this.byId(Number.parseInt(body, 10));
    if (body.startsWith('?')) return this.all().find((j) => j.command.includes(body.slice(1)));
    return this.all().find((j) => j.command.startsWith(body));
  }

  /** Forget a job (after `wait` collected it, or `disown`). */
  remove(job: Job): void {
    const i = this.list.indexOf(job);
    if (i !== -1) this.list[i] = undefined;
    while (this.list.length > 0 && this.list[this.list.length - 1] === undefined) this.list.pop();
    if (this.current === job.id) {
      this.current = this.previous;
      this.previous = undefined;
    }
    if (this.previous === job.id) this.previous = undefined;
  }

  /** Kill every running job (the end of a call without a session). */
  killAll(signal: string): void {
    for (const j of this.running()) j.kill(signal);
  }
}
