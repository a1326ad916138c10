/**
 * Containers that outlive their handle. A background task runs in the container of the handle that
 * started it, whichever handle owns it after `reassignBackground`; when the starting handle is
 * destroyed while such a task runs, its container is retired instead of removed, and goes when the
 * last of its tasks ends (or when the context closes).
 * @module
 */

/** The running tasks per container, and the retired containers waiting for theirs to end. */
export class RetiredContainers {
  /** Running background tasks per container (whoever owns them now), by registry id. */
  private readonly hosted = new Map<string, Set<string>>();
  private readonly retired = new Set<string>();
  private readonly removals = new Set<Promise<void>>();
  private readonly removeQuietly: (containerId: string) => Promise<void>;

  /** @param removeQuietly - remove a container; never rejects (a failure is remembered for `sweep`). */
  constructor(removeQuietly: (containerId: string) => Promise<void>) {
    this.removeQuietly = removeQuietly;
  }

  /**
   * Follow a task started in `containerId`: its `settled`, wrapped to note the end, and `named`, to
   * call with the task's registry id once it has one.
   */
  hostTask<T>(
    containerId: string,
    settled: Promise<T>,
  ): { settled: Promise<T>; named(taskId: string): void } {
    const hosted = this.hosted.get(containerId) ?? new Set<string>();
    this.hosted.set(containerId, hosted);
    let taskId: string | undefined;
    let ended = false;
    const watched = settled.then((outcome) => {
      ended = true;
      if (taskId !== undefined) this.taskEnded(containerId, taskId);
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
   * The handle of `containerId` is being destroyed: retire the container when a task still tracked
   * (owned by another handle now) runs in it, and say so; otherwise forget it and return false (the
   * caller removes it).
   */
  retireIfHosting(containerId: string, isTracked: (taskId: string) => boolean): boolean {
    const hosted = [...(this.hosted.get(containerId) ?? [])];
    if (hosted.some(isTracked)) {
      this.retired.add(containerId);
      return true;
    }
    this.hosted.delete(containerId);
    return false;
  }

  /** Remove every retired container now (the context closes; their tasks go with them). */
  removeAll(): Promise<void> {
    return Promise.all([...this.retired].map((id) => this.removeRetired(id))).then(() => undefined);
  }

  /** Resolves when every removal under way settled. */
  async settled(): Promise<void> {
    await Promise.all(this.removals);
  }

  /** A background task ended: a retired container with no task left is removed. */
  private taskEnded(containerId: string, taskId: string): void {
    const hosted = this.hosted.get(containerId);
    hosted?.delete(taskId);
    if ((hosted?.size ?? 0) === 0 && this.retired.has(containerId)) void this.removeRetired(containerId);
  }

  private removeRetired(containerId: string): Promise<void> {
    this.retired.delete(containerId);
    this.hosted.delete(containerId);
    const removal = this.removeQuietly(containerId);
    this.removals.add(removal);
    void removal.then(() => this.removals.delete(removal));
    return removal;
  }
}
