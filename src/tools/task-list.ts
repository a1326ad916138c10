/**
 * `task_list`: the background tasks of this workspace.
 * @module
 */
import { requireMethod } from './capability.js';
import { defineTool } from './define-tool.js';
import { formatBytes } from './human-units.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { describeStatus, shortCommand } from './task-lookup.js';
import { textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

/** The `task_list` tool. */
export function createTaskListTool(options: ToolOptions): BerthTool {
  resolveLimits(options); // validates the options
  const { context, handle } = options;
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'task_list',
    description:
      'List the background tasks started with bash (run_in_background, or yield_ms that ran out): id, status, pid, output size, command. Running tasks first.',
    fields: {},
    example: {},
    annotations: { title: 'List tasks', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run() {
      const listBackground = requireMethod(context, 'listBackground', 'background tasks');
      const tasks = (await listBackground(handle)).filter((t) => !session.settledTaskIds.has(t.id));
      if (tasks.length === 0) return textResult('No background tasks.');
      const now = Date.now();
      const sorted = [...tasks].sort(
        (a, b) => Number(a.exit !== null) - Number(b.exit !== null) || b.startedAt - a.startedAt,
      );
      const lines = sorted.map(
        (t) =>
          `${t.id}  ${describeStatus(t, now)}  pid ${t.pid}  ${formatBytes(t.logBytes)} output  $ ${shortCommand(t.command, 100)}`,
      );
      const running = tasks.filter((t) => t.exit === null).length;
      return textResult(
        `${tasks.length} background task${tasks.length === 1 ? '' : 's'} (${running} running):\n${lines.join('\n')}`,
      );
    },
  });
}
