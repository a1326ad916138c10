/**
 * `task_wait`: wait for a background task to exit, up to a timeout.
 * @module
 */
import { requireMethod } from './capability.js';
import { defineTool } from './define-tool.js';
import { cutHeadTail } from './head-tail-text.js';
import { formatCount, formatDuration } from './human-units.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { readLogWindow } from './task-log.js';
import { describeStatus, findTask, shortCommand, TASK_ID_FIELD } from './task-lookup.js';
import { readableOutput } from './terminal-text.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const DEFAULT_WAIT_MS = 30_000;
const TAIL_CHARS = 2000;

/** The `task_wait` tool. */
export function createTaskWaitTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'task_wait',
    description: [
      'Wait until a background task exits, or until timeout_ms passes (the task keeps running then).',
      `Returns its status and the last ${formatCount(TAIL_CHARS)} characters of its output; read more with task_output.`,
      `Default timeout ${DEFAULT_WAIT_MS} ms, at most ${limits.maxTimeoutMs}.`,
    ].join(' '),
    fields: {
      task_id: TASK_ID_FIELD,
      timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: limits.maxTimeoutMs,
        description: `Longest wait in milliseconds. Default ${DEFAULT_WAIT_MS}.`,
      },
    },
    example: { task_id: 'bg-1a2b3c4d5e6f', timeout_ms: 60000 },
    annotations: { title: 'Wait for task', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(args, signal) {
      const waitBackground = requireMethod(context, 'waitBackground', 'waiting for background tasks');
      const before = await findTask(context, handle, args.task_id, session.settledTaskIds);
      const timeoutMs = args.timeout_ms ?? DEFAULT_WAIT_MS;
      if (before.exit === null) await waitBackground(handle, before.id, { timeoutMs, signal });
      if (signal?.aborted)
        return errorResult(
          `Stopped waiting for task ${before.id}: the call was cancelled. The task was left as it was.`,
        );
      const task = await findTask(context, handle, args.task_id, session.settledTaskIds);
      // The log's ends only, however large it is: its tail is what is shown.
      const log = await readLogWindow(context, handle, task.outputPath, TAIL_CHARS * 4);
      const cut = log.whole === null ? null : cutHeadTail(log.whole, TAIL_CHARS * 2);
      const tail = log.whole === null ? log.tail.slice(-TAIL_CHARS) : cut === null ? log.whole : cut.tail;
      const head =
        task.exit === null
          ? `Task ${task.id} is still running after waiting ${formatDuration(timeoutMs)} (${describeStatus(task)}): ${shortCommand(task.command)}`
          : `Task ${task.id} ${describeStatus(task)}: ${shortCommand(task.command)}`;
      const parts = [head];
      if (log.totalBytes === 0) parts.push('(no output)');
      else {
        parts.push(
          log.whole !== null && cut === null
            ? `[Output, ${formatCount(log.totalBytes)} bytes:]`
            : `[Last ${formatCount(tail.length)} characters of ${formatCount(log.totalBytes)} bytes of output; read the rest with task_output from offset 0:]`,
        );
        const text = readableOutput(tail);
        parts.push(text.endsWith('\n') ? text.slice(0, -1) : text);
      }
      parts.push(`[next_offset for task_output: ${log.nextOffset}]`);
      return textResult(parts.join('\n'));
    },
  });
}
