/**
 * Hosts (a container, a pod, a remote sandbox) that outlive their handle. A background task runs
 * in the host of the handle that started it, whichever handle owns it after `reassignBackground`;
 * when the starting handle is destroyed while such a task runs, its host is retired instead of
 * removed, and goes when the last of its tasks ends (or when the context closes). Shared by the
 * Docker, Kubernetes and remote contexts.
 * @module
 */

/** The running tasks per host `K`, and the retired hosts waiting for theirs to end. */
export class RetiredHosts<K> {
  /** Running background tasks per host (whoever owns them now), by registry id. */
  private readonly hosted = new Map<K, Set<string>>();
  private readonly retired = new Set<K>();
  private readonly removals = new Set<Promise<void>>();
  private readonly removeQuietly: (host: K) => Promise<void>;

  /** @param removeQuietly - remove a host; never rejects. */
  constructor(removeQuietly: (host: K) => Promise<void>) {
    this.removeQuietly = removeQuietly;
  }

  /** The retired hosts (still up for tasks another handle owns). */
  retiredHosts(): K[] {
    return [...this.retired];
  }

  /**
   * Follow a task started in `host`: its `settled`, wrapped to note the end, and `named`, to call
   * with the task's registry id once it has one.
   */
  hostTask<T>(host: K, settled: Promise<T>): { settled: Promise<T>; named(taskId: string): void } {
    const hosted = this.hosted.get(host) ?? new Set<string>();
    this.hosted.set(host, hosted);
    let taskId: string | undefined;
    let ended = false;
    const watched = settled.then((outcome) => {
      ended = true;
      if (taskId !== undefined) this.taskEnded(host, taskId);
      return outcome;
    });
    return {
      settled: watched,
      named: (id) => {
        taskId = id;
        if (!ended) hosted.add(id);
      },
    };
  }

  /**
   * The handle of `host` is being destroyed: retire the host when a task `isTracked` accepts (owned
   * by another handle now) runs in it, and say so; otherwise forget it and return false (the
   * caller removes it).
   */
  retireIfHosting(host: K, isTracked: (taskId: string) => boolean): boolean {
    const hosted = [...(this.hosted.get(host) ?? [])];
    if (hosted.some(isTracked)) {
      this.retired.add(host);
      return true;
    }
    this.hosted.delete(host);
    return false;
  }

  /** Remove every retired host now (the context closes; their tasks go with them). */
  removeAll(): Promise<void> {
    return Promise.all([...this.retired].map((id) => this.removeRetired(id))).then(() => undefined);
  }

  /** Resolves when every removal under way settled. */
  async settled(): Promise<void> {
    await Promise.all(this.removals);
  }

  /** A background task ended: a retired host with no task left is removed. */
  private taskEnded(host: K, taskId: string): void {
    const hosted = this.hosted.get(host);
    hosted?.delete(taskId);
    if ((hosted?.size ?? 0) === 0 && this.retired.has(host)) void this.removeRetired(host);
  }

  private removeRetired(host: K): Promise<void> {
    this.retired.delete(host);
    this.hosted.delete(host);
    const removal = this.removeQuietly(host);
    this.removals.add(removal);
    void removal.then(() => this.removals.delete(removal));
    return removal;
  }
}
