/**
 * The one implementation of `Filesystem.readChunks`: positional reads through an open handle, so
 * a scanner holds one chunk at a time, keeps reading the file it opened even if the path is
 * replaced meanwhile, and stops (closing the handle) when the consumer breaks out.
 * @module
 */
import type { Filesystem, VfsReadChunksOptions } from './filesystem.js';
import { VfsError } from './filesystem.js';

/** Default chunk: 64 KiB, what a pipe holds. */
export const DEFAULT_CHUNK_BYTES = 64 * 1024;

/** Stream `path` of `fs` in chunks (see {@link VfsReadChunksOptions}). */
export async function* readChunksVia(
  fs: Pick<Filesystem, 'open'>,
  path: string,
  options: VfsReadChunksOptions = {},
): AsyncGenerator<Uint8Array> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes <= 0) {
    throw new VfsError('EINVAL', 'read', path, { detail: `chunkBytes must be a positive integer` });
  }
  let position = options.offset ?? 0;
  if (!Number.isSafeInteger(position) || position < 0) {
    throw new VfsError('EINVAL', 'read', path, { detail: `offset must be a non-negative integer` });
  }
  throwIfAborted(options.signal);
  const handle = await fs.open(path, { read: true });
  try {
    for (;;) {
      throwIfAborted(options.signal);
      const chunk = await handle.read(chunkBytes, position);
      if (chunk.length === 0) return;
      position += chunk.length;
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}

/** Throw an `AbortError` (a `DOMException`, as `fetch` and `node:fs` do) once `signal` fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new DOMException('The read was aborted', { name: 'AbortError', cause: signal.reason });
  }
}
