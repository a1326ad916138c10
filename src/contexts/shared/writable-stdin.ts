/**
 * A background task's stdin over a Node `Writable` (a child's stdin pipe, an engine's hijacked
 * exec socket, an exec channel): what the registry's queue needs, with every promise settling
 * even when the stream is destroyed under a pending write.
 * @module
 */
import type { Writable } from 'node:stream';
import type { BackgroundStdin } from '../../contract/task-stdin.js';

/** `BackgroundStdin` over `stream`; `end` half-closes it (the task reads end-of-file). */
export function writableStdin(stream: Writable): BackgroundStdin {
  // A task that exits (or closes its stdin) under a write is EPIPE, which the queue reports as a
  // broken stdin; it must never reach the host as an uncaught error.
  stream.on('error', () => undefined);
  return {
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        if (stream.destroyed || stream.writableEnded) {
          reject(new Error('the stdin stream is closed'));
          return;
        }
        const onClose = () => reject(new Error('the stdin stream closed before the write was delivered'));
        stream.once('close', onClose);
        stream.write(bytes, (error) => {
          stream.off('close', onClose);
          if (error) reject(error);
          else resolve();
        });
      }),
    end: () =>
      new Promise<void>((resolve) => {
        if (stream.destroyed || stream.writableEnded) {
          resolve();
          return;
        }
        stream.once('close', () => resolve());
        stream.end(() => resolve());
      }),
  };
}
