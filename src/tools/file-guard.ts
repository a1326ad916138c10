/**
 * One writer per file, and no edit from a stale view. Calls that change a file (edit, write) run
 * one at a time per path, so concurrent edits of one file each see the previous one's result
 * instead of overwriting it. The session remembers a digest of each file as the model last saw it
 * (read, written or edited through the tools); a change made since by anything else (a command, an
 * editor, another agent) refuses the next edit until the model reads the file again.
 * @module
 */
import { createHash } from 'node:crypto';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { ToolFailure } from './tool-result.js';
import type { ToolSession } from './types.js';

/** Files whose last-seen digest a session keeps; the oldest is forgotten beyond this. */
const MAX_SEEN_FILES = 10_000;

/** Run `change` while no other change of the same file (by its real path) runs in this session. */
export async function withFileLock<T>(
  context: ExecutionContext,
  handle: ContextHandle,
  session: ToolSession,
  path: string,
  change: () => Promise<T>,
): Promise<T> {
  return withKeyLock(session, await lockKey(context, handle, path), change);
}

/**
 * Run `change` holding the lock of every path in `paths` (taken in one order, by real path, so two
 * multi-file changes cannot wait on each other).
 */
export async function withFileLocks<T>(
  context: ExecutionContext,
  handle: ContextHandle,
  session: ToolSession,
  paths: readonly string[],
  change: () => Promise<T>,
): Promise<T> {
  const keys = [...new Set(await Promise.all(paths.map((path) => lockKey(context, handle, path))))].sort();
  const hold = (index: number): Promise<T> =>
    index === keys.length ? change() : withKeyLock(session, keys[index]!, () => hold(index + 1));
  return hold(0);
}

async function withKeyLock<T>(session: ToolSession, key: string, change: () => Promise<T>): Promise<T> {
  const previous = session.fileLocks.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  session.fileLocks.set(key, tail);
  await previous;
  try {
    return await change();
  } finally {
    release();
    if (session.fileLocks.get(key) === tail) session.fileLocks.delete(key);
  }
}

/** A link and its target are one file: lock the real path where the context can tell it. */
async function lockKey(context: ExecutionContext, handle: ContextHandle, path: string): Promise<string> {
  if (typeof context.realPath !== 'function') return path;
  try {
    return await context.realPath(handle, path);
  } catch {
    return path; // a file about to be created has no real path yet
  }
}

/** Remember `content` as what the model now knows of `path`. */
export function rememberSeen(session: ToolSession, path: string, content: string | Uint8Array): void {
  session.seenFiles.delete(path);
  session.seenFiles.set(path, digest(content));
  if (session.seenFiles.size > MAX_SEEN_FILES) {
    const oldest = session.seenFiles.keys().next().value;
    if (oldest !== undefined) session.seenFiles.delete(oldest);
  }
}

/**
 * Refuse to change `path` when it differs from what the model last saw of it. A file the model
 * never saw through the tools is not refused: the edit's exact `old_string` is its check.
 */
export function assertUnchangedSinceSeen(
  session: ToolSession,
  path: string,
  content: string | Uint8Array,
  tool: string,
): void {
  const seen = session.seenFiles.get(path);
  if (seen === undefined || seen === digest(content)) return;
  throw new ToolFailure(
    `${path} has changed since you last read it (a command or another program modified it). ` +
      `Read it again with read_file, then redo the ${tool} against its current content.`,
  );
}

function digest(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('base64');
}
