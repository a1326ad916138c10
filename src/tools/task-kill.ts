/**
 * `task_kill`: stop a background task and its whole process tree.
 * @module
 */
import { requireMethod } from './capability.js';
import { exitStatusLine } from './command-output.js';
import { defineTool } from './define-tool.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { describeStatus, findTask, shortCommand, TASK_ID_FIELD } from './task-lookup.js';
import { textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

/** The `task_kill` tool. */
export function createTaskKillTool(options: ToolOptions): BerthTool {
  resolveLimits(options); // validates the options
  const { context, handle } = options;
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'task_kill',
    description: [
      'Stop a background task: SIGTERM to its whole process tree, then SIGKILL if it does not exit.',
      'Returns once it has exited. Its output stays readable with task_output. Killing a task that already exited changes nothing.',
    ].join(' '),
    fields: { task_id: TASK_ID_FIELD },
    example: { task_id: 'bg-1a2b3c4d5e6f' },
    annotations: {
      title: 'Stop task',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args) {
      const killBackground = requireMethod(context, 'killBackground', 'killing background tasks');
      const task = await findTask(context, handle, args.task_id, session.settledTaskIds);
      if (task.exit !== null)
        return textResult(
          `Task ${task.id} has already ended (${describeStatus(task)}); nothing to kill. Command: ${shortCommand(task.command)}`,
        );
      const exit = await killBackground(handle, task.id);
      if (exit === null) return textResult(`Task ${task.id} was already gone; nothing to kill.`);
      return textResult(
        `Stopped task ${task.id} (pid ${task.pid}): ${shortCommand(task.command)}\n${exitStatusLine(exit)}\nIts output stays in ${task.outputPath}.`,
      );
    },
  });
}
