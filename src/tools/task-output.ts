/**
 * `task_output`: a background task's output since a byte offset.
 * @module
 */
import { defineTool } from './define-tool.js';
import { formatBytes, formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { logStateLine, readLogSlice } from './task-log.js';
import { describeStatus, findTask, shortCommand, TASK_ID_FIELD } from './task-lookup.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

/** The `task_output` tool. */
export function createTaskOutputTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'task_output',
    description: [
      "Read a background task's output (stdout and stderr interleaved) from a byte offset, plus its status.",
      'Pass the next_offset from the previous call to get only new output; offset 0 (default) reads from the start.',
      `One call returns at most about ${formatCount(limits.outputBudgetChars)} bytes; the reply says where to continue.`,
    ].join(' '),
    fields: {
      task_id: TASK_ID_FIELD,
      offset: {
        type: 'integer',
        minimum: 0,
        description: 'Byte offset to read from (next_offset of the previous call). Default 0.',
      },
    },
    example: { task_id: 'task-1', offset: 0 },
    annotations: {
      title: 'Read task output',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args) {
      const task = await findTask(context, handle, args.task_id, session.settledTaskIds);
      const offset = args.offset ?? 0;
      // Only the page asked for is read, however large the log is.
      const slice = await readLogSlice(
        context,
        handle,
        task.outputPath,
        offset,
        limits.outputBudgetChars,
        true,
      );
      if (offset > slice.totalBytes)
        return errorResult(
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
      if (slice.text.length > 0) parts.push(slice.text.endsWith('\n') ? slice.text.slice(0, -1) : slice.text);
      const state = logStateLine({ logFailure: task.logFailure, logTruncated: task.exit?.logTruncated });
      if (state !== null) parts.push(state);
      parts.push(next);
      return textResult(parts.join('\n'));
    },
  });
}
