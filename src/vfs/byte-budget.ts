/**
 * One memory budget shared by every in-memory layer of a context (memory filesystems, the memory
 * upper layer of overlays and their forks). A mutation reserves what it adds before it changes
 * anything, so a write that does not fit fails with `ENOSPC` and leaves the file as it was.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import { VfsError } from './filesystem.js';

export interface ByteBudgetOptions {
  /** Most bytes of file content and symlink targets held at once. Default: unbounded. */
  readonly maxBytes?: number | undefined;
  /**
   * Most files, directories and symlinks held at once (what an inode table bounds on a disk), so
   * a million empty files cannot exhaust memory under a byte cap. Default: unbounded.
   */
  readonly maxNodes?: number | undefined;
}

/** What a budget holds right now. */
export interface ByteBudgetUsage {
  readonly bytes: number;
  readonly maxBytes: number;
  readonly nodes: number;
  readonly maxNodes: number;
}

/** A byte (and node) budget. Create one per context and hand it to every memory layer. */
export class ByteBudget {
  readonly maxBytes: number;
  readonly maxNodes: number;
  private bytes = 0;
  private nodes = 0;

  constructor(options: ByteBudgetOptions = {}) {
    this.maxBytes = limit(options.maxBytes, 'maxBytes');
    this.maxNodes = limit(options.maxNodes, 'maxNodes');
  }

  /** Bytes and nodes in use, and the limits (`Infinity` when unbounded). */
  usage(): ByteBudgetUsage {
    return { bytes: this.bytes, maxBytes: this.maxBytes, nodes: this.nodes, maxNodes: this.maxNodes };
  }

  /**
   * Take `bytes` (may be negative: a release) and `nodes`, or throw `ENOSPC` and take nothing.
   * @param syscall - the call being made, for the error.
   * @param path - the path being written, for the error.
   */
  charge(bytes: number, nodes: number, syscall: string, path: string): void {
    if (bytes > 0 && this.bytes + bytes > this.maxBytes) {
      throw new VfsError('ENOSPC', syscall, path, {
        detail: `the byte budget holds ${this.bytes} of ${this.maxBytes} bytes; this needs ${bytes} more`,
      });
    }
    if (nodes > 0 && this.nodes + nodes > this.maxNodes) {
      throw new VfsError('ENOSPC', syscall, path, {
        detail: `the budget holds ${this.nodes} of ${this.maxNodes} files and directories`,
      });
    }
    this.bytes += bytes;
    this.nodes += nodes;
  }

  /** Give back what {@link charge} took. */
  release(bytes: number, nodes: number): void {
    this.bytes -= bytes;
    this.nodes -= nodes;
  }
}

function limit(value: number | undefined, field: string): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  if (typeof value !== 'number' || !(value >= 0) || (!Number.isSafeInteger(value) && value !== Infinity)) {
    throw new InvalidArgumentError(field, `must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}
