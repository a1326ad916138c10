/**
 * One page of a background task's log from a byte offset, as `task_output` and `task_write` show
 * it: a header with the task's state, the byte range, the text, and where to continue. Only the
 * page is read, however large the log is.
 * @module
 */
import type { BackgroundTaskInfo, ContextHandle, ExecutionContext } from '../contract/types.js';
import { formatBytes, formatCount } from './human-units.js';
import { logStateLine, readLogSlice } from './task-log.js';
import { describeStatus, shortCommand } from './task-lookup.js';
import { readableOutput } from './terminal-text.js';
import { ToolFailure } from './tool-result.js';

/**
 * The page's lines, joined by the caller.
 * @throws ToolFailure when `offset` is past the end of the log.
 */
export async function outputPage(
  context: ExecutionContext,
  handle: ContextHandle,
  task: BackgroundTaskInfo,
  offset: number,
  budgetChars: number,
): Promise<string[]> {
  const slice = await readLogSlice(context, handle, task.outputPath, offset, budgetChars, true);
  if (offset > slice.totalBytes)
    throw new ToolFailure(
      `offset ${offset} is past the end of the output of task ${task.id}, which has ${formatCount(slice.totalBytes)} bytes. Use an offset from 0 to ${slice.totalBytes}.`,
    );
  const remaining = slice.totalBytes - slice.nextOffset;
  const header = `Task ${task.id} (pid ${task.pid}) ${describeStatus(task)}: ${shortCommand(task.command)}`;
  const range =
    slice.nextOffset === slice.startOffset
      ? `[No new output since offset ${slice.startOffset}; the log has ${formatCount(slice.totalBytes)} bytes.]`
      : `[Output bytes ${slice.startOffset}–${slice.nextOffset} of ${formatCount(slice.totalBytes)}:]`;
  const next =
    remaining > 0
      ? `[next_offset: ${slice.nextOffset}. ${formatBytes(remaining)} more are already available: call task_output again with offset ${slice.nextOffset}.]`
      : task.exit === null
        ? `[next_offset: ${slice.nextOffset}. The task is still running; call again with this offset for new output.]`
        : `[next_offset: ${slice.nextOffset}. This is the end of the output.]`;
  const parts = [header, range];
  if (slice.text.length > 0) {
    const text = readableOutput(slice.text);
    parts.push(text.endsWith('\n') ? text.slice(0, -1) : text);
  }
  const state = logStateLine({ logFailure: task.logFailure, logTruncated: task.exit?.logTruncated });
  if (state !== null) parts.push(state);
  parts.push(next);
  return parts;
}
