/**
 * Finding a background task by id and describing its state, shared by the task_* tools.
 * @module
 */
import type { BackgroundTaskInfo, ContextHandle, ExecutionContext } from '../contract/types.js';
import { requireMethod } from './capability.js';
import { formatDuration } from './human-units.js';
import { ToolFailure } from './tool-result.js';

/** Argument spec for a task id. */
export const TASK_ID_FIELD = {
  type: 'string',
  required: true,
  description: 'The task id that bash returned (also shown by task_list).',
} as const;

/** The task `id` of `handle`, or a `ToolFailure` listing the ids that do exist. */
export async function findTask(
  context: ExecutionContext,
  handle: ContextHandle,
  id: string,
  hidden: ReadonlySet<string>,
): Promise<BackgroundTaskInfo> {
  const listBackground = requireMethod(context, 'listBackground', 'background tasks');
  const tasks = await listBackground(handle);
  const task = tasks.find((t) => t.id === id);
  if (task !== undefined) return task;
  const known = tasks.filter((t) => !hidden.has(t.id)).map((t) => t.id);
  throw new ToolFailure(
    `No background task with id ${JSON.stringify(id)}.${known.length > 0 ? ` Known task ids: ${known.join(', ')}.` : ' There are no background tasks.'} Use task_list to see them.`,
  );
}

/** `running for 3.0 s`, `exited with code 0 after 1.2 s`, `killed after 4 s`. */
export function describeStatus(task: BackgroundTaskInfo, now = Date.now()): string {
  const exit = task.exit;
  if (exit === null) return `running for ${formatDuration(now - task.startedAt)}`;
  const took = formatDuration(exit.durationMs);
  if (task.status === 'killed' || exit.killed)
    return `killed after ${took}${exit.signal !== null ? ` (${exit.signal})` : ''}`;
  if (exit.exitCode === null) return `ended by signal ${exit.signal ?? 'unknown'} after ${took}`;
  return `exited with code ${exit.exitCode} after ${took}`;
}

/** The command, shortened for one line. */
export function shortCommand(command: string, max = 120): string {
  const oneLine = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
