/**
 * `task_write`: send input to the stdin of a background task started with `open_stdin` (a REPL, a
 * prompt, an installer asking questions), then wait a short time for its answer and show it.
 * @module
 */
import { MAX_BACKGROUND_WRITE_BYTES } from '../contract/defaults.js';
import { TaskStdinError } from '../errors/index.js';
import { requireMethod } from './capability.js';
import { defineTool } from './define-tool.js';
import { formatBytes, formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { describeStatus, findTask, TASK_ID_FIELD } from './task-lookup.js';
import { outputPage } from './task-output-page.js';
import { MAX_YIELD_TIME_MS, waitForOutput } from './task-output-wait.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const DEFAULT_YIELD_TIME_MS = 1000;

/** The `task_write` tool. */
export function createTaskWriteTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'task_write',
    description: [
      'Send input to the stdin of a background task started by bash with open_stdin: true (a REPL, a prompt).',
      'Include "\\n" to press Enter; close: true ends its input (like Ctrl-D).',
      `Then waits up to yield_time_ms (default ${DEFAULT_YIELD_TIME_MS}) for its answer and returns the output written since.`,
    ].join(' '),
    fields: {
      task_id: TASK_ID_FIELD,
      input: { type: 'string', allowEmpty: true, description: 'Text to send, e.g. "yes\\n".' },
      close: { type: 'boolean', description: "End the task's stdin after the input." },
      yield_time_ms: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_YIELD_TIME_MS,
        description: `Wait up to this many ms for output. Default ${DEFAULT_YIELD_TIME_MS}.`,
      },
    },
    example: { task_id: 'bg-1a2b3c4d5e6f', input: 'print(1 + 1)\n' },
    annotations: {
      title: 'Write to task',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    async run(args, signal) {
      const writeBackground = requireMethod(
        context,
        'writeBackground',
        "writing to a background task's stdin",
      );
      const input = args.input ?? '';
      const close = args.close === true;
      if (input.length === 0 && !close)
        return errorResult(
          'Give the input to send, close: true to end the task\'s input, or both. Example: {"task_id": "bg-1a2b3c4d5e6f", "input": "yes\\n"}',
        );
      const bytes = Buffer.byteLength(input);
      if (bytes > MAX_BACKGROUND_WRITE_BYTES)
        return errorResult(
          `input is ${formatBytes(bytes)}, over the ${formatBytes(MAX_BACKGROUND_WRITE_BYTES)} one call sends. Send it in parts, or write it to a file with write_file and have the task read that.`,
        );
      const before = await findTask(context, handle, args.task_id, session.settledTaskIds);
      try {
        await writeBackground(handle, before.id, input, { close });
      } catch (error) {
        if (error instanceof TaskStdinError) return errorResult(refusal(error, before));
        throw error;
      }
      const sent = `[Sent ${formatCount(bytes)} byte${bytes === 1 ? '' : 's'} to task ${before.id}${close ? ' and closed its stdin' : ''}.]`;
      await waitForOutput(
        context,
        handle,
        before.id,
        before.logBytes,
        args.yield_time_ms ?? DEFAULT_YIELD_TIME_MS,
        signal,
      );
      const task = await findTask(context, handle, before.id, session.settledTaskIds);
      const page = await outputPage(context, handle, task, before.logBytes, limits.outputBudgetChars);
      return textResult([sent, ...page].join('\n'));
    },
  });
}

/** The refusal in the model's terms: what state the task is in and which tool to use. */
function refusal(
  error: TaskStdinError,
  task: { id: string; command: string } & Parameters<typeof describeStatus>[0],
): string {
  switch (error.reason) {
    case 'not-piped':
      return `Task ${task.id} was started without an open stdin, so it cannot take input. Start the command again with bash {"command": ${JSON.stringify(task.command)}, "open_stdin": true}.`;
    case 'exited':
      return `Task ${task.id} has ended (${describeStatus(task)}) and takes no more input. Read what it did with task_output {"task_id": "${task.id}"}.`;
    case 'closed':
      return `The stdin of task ${task.id} is closed (by close: true, or the task closed it), so it takes no more input. Read its output with task_output; start it again to send more.`;
    case 'backlog':
      return `Task ${task.id} has not read the input sent before (over ${formatBytes(MAX_BACKGROUND_WRITE_BYTES)} waits unread), so nothing was sent. Check task_output: it may be waiting for something else.`;
    default:
      return `Task ${task.id} is not one of this workspace's tasks. Use task_list to see them.`;
  }
}
