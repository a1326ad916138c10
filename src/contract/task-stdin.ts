/**
 * The stdin of one background task started with `stdin: 'pipe'`, as the registry keeps it: writes
 * in call order over the backend's delivery, a bound on input the task has not taken yet, and the
 * open / closed state that `writeBackground` and `listBackground` report.
 * @module
 */
import { type BerthError, TaskStdinError } from '../errors/index.js';
import { MAX_BACKGROUND_WRITE_BYTES } from './defaults.js';

/** How a backend delivers bytes to a task's stdin. */
export interface BackgroundStdin {
  /**
   * Deliver `bytes` after everything delivered before (into the OS pipe, onto the wire). Resolves
   * once delivered; rejects when the pipe broke (the task closed its stdin or ended).
   */
  write(bytes: Uint8Array): Promise<void>;
  /** End the task's stdin after everything written: it reads end-of-file. Must not hang. */
  end(): Promise<void>;
  /**
   * Set when this stdin takes writes but cannot be ended without ending the task (an exec
   * protocol without a half-close): the error (a `CapabilityError`) that `close: true` gets.
   */
  readonly endRefusal?: (() => BerthError) | undefined;
}

const RESOLVED = Promise.resolve();

/** One task's stdin: queued, ordered, bounded delivery. */
export class TaskStdinQueue {
  private readonly stdin: BackgroundStdin;
  private tail: Promise<void> = RESOLVED;
  /** Bytes accepted by `write` and not delivered yet. */
  private pendingBytes = 0;
  /** Why no more writes are taken: closed by the caller, by the task's end, or by a broken pipe. */
  private closedBy: 'caller' | 'exit' | 'broken' | undefined;

  constructor(stdin: BackgroundStdin) {
    this.stdin = stdin;
  }

  /** `'open'` while writes are taken, else `'closed'`. */
  get state(): 'open' | 'closed' {
    return this.closedBy === undefined ? 'open' : 'closed';
  }

  /**
   * Queue `bytes` (and then the end of stdin when `close`). Synchronous up to the queueing, so
   * concurrent calls keep their call order. Resolves once `bytes` are queued for delivery, not
   * once the task read them: a task that does not read must not hold up its caller.
   * @throws TaskStdinError when stdin is closed or the unread backlog would pass the cap;
   * the backend's `endRefusal` for `close` on a stdin that cannot be ended (nothing is written).
   */
  write(taskId: string, bytes: Uint8Array, close: boolean): Promise<void> {
    if (this.closedBy !== undefined) throw closedError(taskId, this.closedBy);
    if (close && this.stdin.endRefusal !== undefined) throw this.stdin.endRefusal();
    if (this.pendingBytes + bytes.length > MAX_BACKGROUND_WRITE_BYTES) {
      throw new TaskStdinError(
        'backlog',
        taskId,
        `task ${taskId} has not read ${this.pendingBytes} bytes written to its stdin earlier, and ${bytes.length} more would pass the ${MAX_BACKGROUND_WRITE_BYTES}-byte limit of unread input`,
        'read its output to see whether it is waiting for something else, write less, or pass the data in a file',
      );
    }
    if (bytes.length > 0) {
      this.pendingBytes += bytes.length;
      const delivered = this.tail.then(() => this.stdin.write(bytes));
      this.tail = delivered.then(
        () => {
          this.pendingBytes -= bytes.length;
        },
        () => {
          this.pendingBytes -= bytes.length;
          this.closedBy ??= 'broken';
        },
      );
    }
    if (close) {
      this.closedBy = 'caller';
      this.tail = this.tail.then(() => this.stdin.end().catch(() => undefined));
    }
    return RESOLVED;
  }

  /** The task ended: no more writes. */
  taskEnded(): void {
    this.closedBy ??= 'exit';
  }
}

function closedError(taskId: string, closedBy: 'caller' | 'exit' | 'broken'): TaskStdinError {
  if (closedBy === 'exit') return exitedError(taskId);
  if (closedBy === 'caller') {
    return new TaskStdinError(
      'closed',
      taskId,
      `the stdin of task ${taskId} was closed by an earlier write with close: true`,
      'start the command again to give it more input',
    );
  }
  return new TaskStdinError(
    'closed',
    taskId,
    `the stdin of task ${taskId} is broken: the task closed it (it no longer reads input), or the connection to it ended`,
    'read its output to see what it did; start it again to give it more input',
  );
}

/** The refusal for a task that has already exited. */
export function exitedError(taskId: string): TaskStdinError {
  return new TaskStdinError(
    'exited',
    taskId,
    `task ${taskId} has exited, so nothing can be written to its stdin`,
    'read its output for what it did, and start it again to give it more input',
  );
}
