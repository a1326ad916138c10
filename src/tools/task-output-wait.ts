/**
 * Waiting a short, bounded time for a background task to say something (Codex's `yield_time_ms`
 * shape): after input was written to it, or when a read finds nothing new. The contract has no
 * output event, so the task's log size is polled through `listBackground`, which every backend
 * answers from memory.
 * @module
 */
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { requireMethod } from './capability.js';

/** The longest `yield_time_ms`: well under the 60 s request timeout common in MCP clients. */
export const MAX_YIELD_TIME_MS = 30_000;

const POLL_MS = 25;
/** Output that stopped growing for this long is taken as the task's whole answer. */
const QUIET_MS = 150;

/**
 * Resolves once the task's log grew past `fromBytes` and then stayed quiet for a moment, once the
 * task ended, once `yieldMs` passed, or once `signal` aborted: whichever comes first.
 */
export async function waitForOutput(
  context: ExecutionContext,
  handle: ContextHandle,
  taskId: string,
  fromBytes: number,
  yieldMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const listBackground = requireMethod(context, 'listBackground', 'background tasks');
  const started = performance.now();
  let seenBytes = fromBytes;
  let grewAt: number | undefined;
  while (signal?.aborted !== true) {
    const now = performance.now();
    const left = yieldMs - (now - started);
    if (left <= 0) return;
    const task = (await listBackground(handle)).find((info) => info.id === taskId);
    if (task === undefined || task.exit !== null) return;
    if (task.logBytes > seenBytes) {
      seenBytes = task.logBytes;
      grewAt = now;
    } else if (grewAt !== undefined && now - grewAt >= QUIET_MS) return;
    await pause(Math.min(POLL_MS, left), signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
