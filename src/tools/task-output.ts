/**
 * `task_output`: a background task's output since a byte offset.
 * @module
 */
import type { BackgroundTaskInfo } from '../contract/types.js';
import { defineTool } from './define-tool.js';
import { compileLinePattern } from './grep-pattern.js';
import { formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { readLogBytes, sliceLog } from './task-log.js';
import { describeStatus, findTask, shortCommand, TASK_ID_FIELD } from './task-lookup.js';
import { outputPage } from './task-output-page.js';
import { MAX_YIELD_TIME_MS, waitForOutput } from './task-output-wait.js';
import { cleanTerminalText } from './terminal-text.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions, ToolResult } from './types.js';

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
      tail_lines: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Only the last N lines.' },
      filter: { type: 'string', description: 'Only lines matching this regex (grep syntax).' },
      yield_time_ms: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_YIELD_TIME_MS,
        description: 'With no new output yet, wait up to this many ms for some. Default 0.',
      },
    },
    example: { task_id: 'bg-1a2b3c4d5e6f', offset: 0 },
    annotations: {
      title: 'Read task output',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args, signal) {
      let task = await findTask(context, handle, args.task_id, session.settledTaskIds);
      const offset = args.offset ?? 0;
      if (
        args.yield_time_ms !== undefined &&
        args.yield_time_ms > 0 &&
        task.exit === null &&
        task.logBytes <= offset
      ) {
        await waitForOutput(context, handle, task.id, offset, args.yield_time_ms, signal);
        task = await findTask(context, handle, task.id, session.settledTaskIds);
      }
      if (args.tail_lines !== undefined || args.filter !== undefined) {
        // Lines are selected from everything after offset: the log is read whole (up to the
        // context's read limit).
        const bytes = await readLogBytes(context, handle, task.outputPath);
        if (offset > bytes.length)
          return errorResult(
            `offset ${offset} is past the end of the output of task ${task.id}, which has ${formatCount(bytes.length)} bytes. Use an offset from 0 to ${bytes.length}.`,
          );
        return selectedLines(task, bytes, offset, args.tail_lines, args.filter, limits.outputBudgetChars);
      }
      return textResult(
        (await outputPage(context, handle, task, offset, limits.outputBudgetChars)).join('\n'),
      );
    },
  });
}

/**
 * The lines of the log from `offset` to its end that match `filter`, of them the last
 * `tailLines`, and of those as many of the last as fit `budgetChars`; next_offset is the end.
 */
function selectedLines(
  task: BackgroundTaskInfo,
  bytes: Uint8Array,
  offset: number,
  tailLines: number | undefined,
  filter: string | undefined,
  budgetChars: number,
): ToolResult {
  const matcher = filter === undefined ? null : compileLinePattern(filter, false);
  const slice = sliceLog(bytes, offset, bytes.length);
  const text = cleanTerminalText(slice.text).text;
  const lines = text.length === 0 ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const matching = matcher === null ? lines : lines.filter((line) => matcher.test(line));
  let chosen = tailLines === undefined ? matching : matching.slice(-tailLines);
  let chars = 0;
  let first = chosen.length;
  while (first > 0 && chars + chosen[first - 1]!.length + 1 <= budgetChars)
    chars += chosen[--first]!.length + 1;
  const dropped = first;
  chosen = chosen.slice(first);
  const what = `${filter === undefined ? '' : `matching ${JSON.stringify(filter)} `}`;
  const parts = [
    `Task ${task.id} (pid ${task.pid}) ${describeStatus(task)}: ${shortCommand(task.command)}`,
    `[${formatCount(chosen.length)} of ${formatCount(matching.length)} line${matching.length === 1 ? '' : 's'} ${what}in bytes ${slice.startOffset}–${slice.nextOffset}${tailLines === undefined ? '' : ` (tail_lines ${tailLines})`}:]`,
  ];
  if (chosen.length > 0) parts.push(chosen.join('\n'));
  if (dropped > 0)
    parts.push(
      `[${formatCount(dropped)} earlier lines did not fit the output limit; narrow filter or tail_lines.]`,
    );
  parts.push(
    `[next_offset: ${slice.nextOffset}.${task.exit === null ? ' The task is still running; call again with this offset for new output.' : ' This is the end of the output.'}]`,
  );
  return textResult(parts.join('\n'));
}
