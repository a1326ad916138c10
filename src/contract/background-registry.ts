/**
 * Handle-scoped bookkeeping for background tasks, shared by every backend. The backend starts the
 * process and hands over its kill and exit machinery; the registry owns ids, ownership, the single
 * owner `onExit`, stall detection, list / kill / wait / reassign, and the destroy escalation.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { TaskStdinError } from '../errors/index.js';
import { settlesWithin } from '../subprocess/settles-within.js';
import { callListener } from './call-listener.js';
import { BACKGROUND_WRITE_OPTION_KEYS, REASSIGN_CALLBACK_KEYS, WAIT_OPTION_KEYS } from './option-keys.js';
import { type BackgroundStdin, exitedError, TaskStdinQueue } from './task-stdin.js';
import { writeData } from './task-stdin-data.js';
import type {
  BackgroundExit,
  BackgroundStall,
  BackgroundTask,
  BackgroundTaskInfo,
  BackgroundWriteOptions,
  WaitOptions,
} from './types.js';
import { abortSignal, booleanOption, callback, durationMs, knownOptions } from './validate-options.js';

export type { BackgroundStdin } from './task-stdin.js';

/** How a task ended, as the backend observed it. */
export interface TaskOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** What a backend hands over for one started task. */
export interface BackgroundMachinery {
  readonly pid: number;
  readonly outputPath: string;
  readonly command: string;
  /**
   * Start ending the whole tree (TERM, then KILL after the backend's grace). Idempotent. A backend
   * that can fail to end it (a remote engine that does not answer) returns a promise that rejects
   * with why; `kill` then rejects with that error instead of waiting for an exit that never comes.
   */
  terminate(): void | Promise<void>;
  /** KILL whatever remains of the tree now: destroy's escalation after its grace. */
  killNow(): void | Promise<void>;
  /** Resolves once the task exited AND its log is flushed and closed. Must not reject. */
  readonly settled: Promise<TaskOutcome>;
  /** Bytes in the log so far. */
  logBytes(): number;
  /** True once the log reached its cap and later output was dropped. */
  logTruncated(): boolean;
  /** Why the log could not be written, with what was kept (see `BackgroundExit.logFailure`). */
  logFailure?(): string | undefined;
  /** The task's stdin, when it was started with `stdin: 'pipe'`. */
  readonly stdin?: BackgroundStdin | undefined;
}

/** Owner callbacks; replaced wholesale by `reassign`. */
export interface OwnerCallbacks {
  readonly onExit?: ((exit: BackgroundExit) => void) | undefined;
  readonly onStall?: ((stall: BackgroundStall) => void) | undefined;
}

export interface RegisterOptions extends OwnerCallbacks {
  readonly handleId: string;
  /** Silence before `onStall` fires (once per silent stretch). */
  readonly stallMs: number;
}

interface TaskRecord {
  readonly id: string;
  handleId: string;
  readonly machinery: BackgroundMachinery;
  readonly startedAt: number;
  readonly startedMono: number;
  status: 'running' | 'exited' | 'killed';
  exit: BackgroundExit | null;
  killRequested: boolean;
  onExit: ((exit: BackgroundExit) => void) | undefined;
  onStall: ((stall: BackgroundStall) => void) | undefined;
  readonly stallMs: number;
  lastActivity: number;
  stallTimer: NodeJS.Timeout | undefined;
  stallFired: boolean;
  readonly done: Promise<BackgroundExit>;
  readonly stdin: TaskStdinQueue | undefined;
}

/** Handle-scoped registry of background tasks. One per context instance, never global. */
export class BackgroundRegistry {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly idPrefix: string;

  /** @param idPrefix - prefix for task ids, e.g. `bg-`. */
  constructor(idPrefix = 'bg-') {
    this.idPrefix = idPrefix;
  }

  /** Track a started task; returns what `execBackground` hands back. */
  register(machinery: BackgroundMachinery, options: RegisterOptions): BackgroundTask {
    const id = `${this.idPrefix}${randomBytes(6).toString('hex')}`;
    const now = performance.now();
    let resolveDone!: (exit: BackgroundExit) => void;
    const done = new Promise<BackgroundExit>((resolve) => {
      resolveDone = resolve;
    });
    const record: TaskRecord = {
      id,
      handleId: options.handleId,
      machinery,
      startedAt: Date.now(),
      startedMono: now,
      status: 'running',
      exit: null,
      killRequested: false,
      onExit: options.onExit,
      onStall: options.onStall,
      stallMs: options.stallMs,
      lastActivity: now,
      stallTimer: undefined,
      stallFired: false,
      done,
      stdin: machinery.stdin ? new TaskStdinQueue(machinery.stdin) : undefined,
    };
    this.tasks.set(id, record);
    this.armStall(record, options.stallMs);
    machinery.settled.then(
      (outcome) => resolveDone(this.finish(record, outcome)),
      () => resolveDone(this.finish(record, { exitCode: null, signal: null })),
    );
    return { id, pid: machinery.pid, outputPath: machinery.outputPath };
  }

  /** The task produced output: restart its silence clock. Cheap enough to call per chunk. */
  noteOutput(id: string): void {
    const record = this.tasks.get(id);
    if (record?.status !== 'running') return;
    record.lastActivity = performance.now();
    if (record.stallFired) {
      record.stallFired = false;
      this.armStall(record, record.stallMs);
    }
  }

  /** Every task of `handleId`, running or settled, oldest first. */
  list(handleId: string): BackgroundTaskInfo[] {
    return [...this.tasks.values()].filter((record) => record.handleId === handleId).map(info);
  }

  /** True when `path` is the log of one of `handleId`'s tasks (such logs stay readable). */
  ownsOutputPath(handleId: string, path: string): boolean {
    for (const record of this.tasks.values()) {
      if (record.handleId === handleId && record.machinery.outputPath === path) return true;
    }
    return false;
  }

  /**
   * End a task's whole tree. Resolves once it exited and its log is flushed; a task that already
   * ended yields its recorded exit. Null when the id is unknown or another handle's.
   * @throws the backend's error when it could not end the task (see `BackgroundMachinery.terminate`).
   */
  async kill(handleId: string, id: string): Promise<BackgroundExit | null> {
    const record = this.owned(handleId, id);
    if (!record) return null;
    if (record.exit) return record.exit;
    record.killRequested = true;
    const ending = record.machinery.terminate();
    if (ending) {
      const failure = await Promise.race([
        record.done.then(() => undefined),
        ending.then(
          () => record.done.then(() => undefined),
          (error: unknown) => ({ error }),
        ),
      ]);
      if (failure) throw failure.error;
    }
    return record.done;
  }

  /**
   * Write to a running task's stdin (see `ExecutionContext.writeBackground`). Checks and queues
   * synchronously, so concurrent calls keep their order.
   * @throws TaskStdinError (unknown, another handle's, exited, closed, not piped, backlog) or
   * InvalidArgumentError for bad data or options; nothing was written then.
   */
  write(handleId: string, id: string, data: unknown, options?: BackgroundWriteOptions): Promise<void> {
    const bytes = writeData(data);
    const input = knownOptions(options, 'options', BACKGROUND_WRITE_OPTION_KEYS, 'writeBackground');
    const close = booleanOption(input.close, 'options.close', false);
    const taskId = typeof id === 'string' ? id : String(id);
    const record = this.owned(handleId, id);
    if (!record) {
      throw new TaskStdinError(
        'unknown-task',
        taskId,
        `no background task ${JSON.stringify(taskId)} belongs to this handle`,
        "list the handle's tasks (listBackground) for the right id",
      );
    }
    if (record.status !== 'running') throw exitedError(record.id);
    if (!record.stdin) {
      throw new TaskStdinError(
        'not-piped',
        record.id,
        `task ${record.id} was started without an open stdin`,
        "start the command with execBackground(handle, command, { stdin: 'pipe' }) to write to it",
      );
    }
    return record.stdin.write(record.id, bytes, close);
  }

  /** Wait for a task's exit. Null when unknown, another handle's, timed out, or aborted. */
  async wait(handleId: string, id: string, options?: WaitOptions): Promise<BackgroundExit | null> {
    const input = knownOptions(options, 'options', WAIT_OPTION_KEYS, 'waitBackground');
    const timeoutMs =
      input.timeoutMs === undefined ? undefined : durationMs(input.timeoutMs, 'options.timeoutMs', 0, true);
    const signal = abortSignal(input.signal, 'options.signal');
    const record = this.owned(handleId, id);
    if (!record) return null;
    if (record.exit) return record.exit;
    if (signal?.aborted) return null;
    return new Promise<BackgroundExit | null>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (value: BackgroundExit | null) => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onAbort = () => finish(null);
      if (timeoutMs !== undefined) timer = setTimeout(() => finish(null), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      record.done.then(finish);
    });
  }

  /**
   * Move every running task of `fromHandleId` to `toHandleId`; provided callbacks replace the owner
   * callbacks (with from === to only the callbacks change). Returns the moved tasks.
   */
  /** Moves `fromHandleId`'s running tasks; `callbacks` is checked here, as `wait`'s options are. */
  reassign(fromHandleId: string, toHandleId: string, callbacks?: OwnerCallbacks): BackgroundTaskInfo[] {
    const input = knownOptions(callbacks, 'callbacks', REASSIGN_CALLBACK_KEYS, 'reassignBackground');
    const onExit = callback<(exit: BackgroundExit) => void>(input.onExit, 'callbacks.onExit');
    const onStall = callback<(stall: BackgroundStall) => void>(input.onStall, 'callbacks.onStall');
    const moved: BackgroundTaskInfo[] = [];
    for (const record of this.tasks.values()) {
      if (record.handleId !== fromHandleId || record.status !== 'running') continue;
      record.handleId = toHandleId;
      if (onExit) record.onExit = onExit;
      if (onStall) record.onStall = onStall;
      moved.push(info(record));
    }
    return moved;
  }

  /**
   * End every running task of `handleId`: terminate, wait `graceMs`, KILL what remains, wait up to
   * `graceMs` more, then stop waiting. Forgets all of the handle's tasks and returns their log
   * paths so the backend can remove them.
   */
  async destroyHandle(handleId: string, graceMs: number): Promise<string[]> {
    const records = [...this.tasks.values()].filter((record) => record.handleId === handleId);
    const running = records.filter((record) => record.status === 'running');
    for (const record of running) {
      record.killRequested = true;
      // A failure to end it shows as a task that does not settle within the grace.
      void Promise.resolve(record.machinery.terminate()).catch(() => undefined);
    }
    const allDone = () => Promise.all(running.map((record) => record.done));
    if (running.length > 0 && !(await settlesWithin(allDone(), graceMs))) {
      for (const record of running) {
        if (record.status === 'running')
          void Promise.resolve(record.machinery.killNow()).catch(() => undefined);
      }
      await settlesWithin(allDone(), graceMs);
    }
    for (const record of records) {
      if (record.stallTimer) clearTimeout(record.stallTimer);
      this.tasks.delete(record.id);
    }
    return records.map((record) => record.machinery.outputPath);
  }

  /** True while the registry tracks task `id` (any owner; forgotten once its handle is destroyed). */
  isTracked(id: string): boolean {
    return this.tasks.has(id);
  }

  /** Ids of every handle that owns at least one task (running or settled). */
  handleIds(): Set<string> {
    return new Set([...this.tasks.values()].map((record) => record.handleId));
  }

  private owned(handleId: string, id: string): TaskRecord | undefined {
    if (typeof id !== 'string') return undefined;
    const record = this.tasks.get(id);
    return record && record.handleId === handleId ? record : undefined;
  }

  private finish(record: TaskRecord, outcome: TaskOutcome): BackgroundExit {
    if (record.stallTimer) clearTimeout(record.stallTimer);
    record.stallTimer = undefined;
    const exit: BackgroundExit = {
      id: record.id,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: Math.round(performance.now() - record.startedMono),
      killed: record.killRequested,
      logTruncated: record.machinery.logTruncated(),
      ...failureOf(record.machinery),
    };
    record.exit = exit;
    record.status = record.killRequested ? 'killed' : 'exited';
    record.stdin?.taskEnded();
    callListener(record.onExit, exit);
    return exit;
  }

  private armStall(record: TaskRecord, delayMs: number): void {
    if (record.stallTimer) clearTimeout(record.stallTimer);
    record.stallTimer = setTimeout(() => this.checkStall(record), delayMs);
    record.stallTimer.unref();
  }

  private checkStall(record: TaskRecord): void {
    record.stallTimer = undefined;
    if (record.status !== 'running') return;
    const silentMs = performance.now() - record.lastActivity;
    if (silentMs < record.stallMs) {
      this.armStall(record, Math.max(1, Math.ceil(record.stallMs - silentMs)));
      return;
    }
    record.stallFired = true;
    callListener(record.onStall, {
      id: record.id,
      silentMs: Math.floor(silentMs),
      logBytes: record.machinery.logBytes(),
    });
  }
}

function info(record: TaskRecord): BackgroundTaskInfo {
  return {
    id: record.id,
    pid: record.machinery.pid,
    outputPath: record.machinery.outputPath,
    command: record.machinery.command,
    status: record.status,
    startedAt: record.startedAt,
    exit: record.exit,
    logBytes: record.machinery.logBytes(),
    ...failureOf(record.machinery),
    ...(record.stdin ? { stdin: record.stdin.state } : {}),
  };
}

function failureOf(machinery: BackgroundMachinery): { logFailure?: string } {
  const failure = machinery.logFailure?.();
  return failure === undefined ? {} : { logFailure: failure };
}
