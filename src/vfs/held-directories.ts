/**
 * Directory descriptors kept open between calls, so a read in a directory read from a moment ago
 * starts from that directory instead of walking to it again. A held descriptor is only a starting
 * point: what is opened through it is checked against the path it should be at before it is used
 * (see `DirWalker.openForRead`), so a directory renamed, replaced or moved out of the root since
 * it was opened is noticed, never read through. Bounded (at most {@link maxHeldDirectories} descriptors) and
 * closed once idle, so a long-lived filesystem object holds nothing while nobody uses it. Counted:
 * a descriptor in use is never closed under its user (its number could be reused by another open).
 * @module
 */
import { readFileSync } from 'node:fs';
import { closeFd } from './raw-fd.js';

/** The most directories held at once, however many descriptors the process may open. */
const MOST_HELD = 256;
/** The fewest, where the descriptor limit is unknown or low. */
const FEWEST_HELD = 64;
/** Held directories may take at most this share of the process's descriptor limit. */
const SHARE_OF_LIMIT = 16;

/**
 * How many directories are held at once (the least recently used go first): enough for the
 * directories a task reads across (a miss costs an extra open and close): a sixteenth of the soft
 * limit on open files, so held directories never crowd out the process's own descriptors, but at
 * least 64 and at most 256. Read on first use, not at import (start-up loads this module).
 */
export function maxHeldDirectories(): number {
  heldLimit ??= heldLimitFromProc();
  return heldLimit;
}
let heldLimit: number | undefined;

function heldLimitFromProc(): number {
  let soft = Number.NaN;
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Max open files'));
    const value = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    soft = value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value);
  } catch {
    // No /proc (the held directories are not used there anyway): the small size.
  }
  if (Number.isNaN(soft)) return FEWEST_HELD;
  return Math.max(FEWEST_HELD, Math.min(MOST_HELD, Math.floor(soft / SHARE_OF_LIMIT)));
}
/** A held directory unused this long is closed. */
const IDLE_MS = 500;

export interface HeldDirectory {
  /** Components below the root joined by `/` (`''`: the root). */
  readonly key: string;
  readonly fd: number;
  /** The host path it was opened at (lexical: no symlink on the way, or it is not held). */
  readonly realPath: string;
  users: number;
  lastUsedMs: number;
  /** No longer handed out; closed when its last user lets go. */
  retired: boolean;
  /**
   * A file read through it proved to be on the root's device, and the root is on a local
   * filesystem (see `local-device.ts`): the next reads through it take their file's status
   * synchronously. False until then.
   */
  local: boolean;
}

export class HeldDirectories {
  private readonly held = new Map<string, HeldDirectory>();
  private timer: NodeJS.Timeout | null = null;

  /** The held directory for `key`, counted as in use (give it back with {@link release}). */
  take(key: string): HeldDirectory | undefined {
    const entry = this.held.get(key);
    if (entry === undefined) return undefined;
    entry.users++;
    entry.lastUsedMs = performance.now();
    // Most recently used last: eviction takes from the front.
    this.held.delete(key);
    this.held.set(key, entry);
    return entry;
  }

  /** Hold a directory just opened by a walk; returns it counted as in use. */
  hold(key: string, fd: number, realPath: string): HeldDirectory {
    const existing = this.take(key);
    if (existing) {
      closeFd(fd); // another call held it meanwhile
      return existing;
    }
    const entry: HeldDirectory = {
      key,
      fd,
      realPath,
      users: 1,
      lastUsedMs: performance.now(),
      retired: false,
      local: false,
    };
    this.held.set(key, entry);
    for (const [oldKey, old] of this.held) {
      if (this.held.size <= maxHeldDirectories()) break;
      if (old.users === 0) this.retire(oldKey, old);
    }
    this.schedule();
    return entry;
  }

  release(entry: HeldDirectory): void {
    entry.users--;
    if (entry.retired && entry.users === 0) closeFd(entry.fd);
  }

  /** Close every held directory (those in use as soon as their users let go). */
  clear(): void {
    for (const [key, entry] of this.held) this.retire(key, entry);
  }

  /** Let go of the directory `key` and every one held below it (`''`: all of them). */
  dropUnder(key: string): void {
    if (key === '') {
      this.clear();
      return;
    }
    const prefix = `${key}/`;
    for (const [heldKey, entry] of this.held) {
      if (heldKey === key || heldKey.startsWith(prefix)) this.retire(heldKey, entry);
    }
  }

  private retire(key: string, entry: HeldDirectory): void {
    this.held.delete(key);
    entry.retired = true;
    if (entry.users === 0) closeFd(entry.fd);
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const cutoff = performance.now() - IDLE_MS;
      for (const [key, entry] of this.held) {
        if (entry.users === 0 && entry.lastUsedMs <= cutoff) this.retire(key, entry);
      }
      if (this.held.size > 0) this.schedule();
    }, IDLE_MS);
    this.timer.unref();
  }
}
