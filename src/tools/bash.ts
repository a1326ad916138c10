/**
 * `bash`: run a shell command in the context, in the foreground, in the background, or in the
 * foreground until `yield_ms` passes and then in the background.
 * @module
 */
import type {
  BackgroundOptions,
  BackgroundTask,
  ContextHandle,
  ExecutionContext,
} from '../contract/types.js';
import { SpawnError } from '../errors/index.js';
import { requireMethod } from './capability.js';
import {
  contextCut,
  cutForModel,
  execLocator,
  execStatusLine,
  exitStatusLine,
  splitBudget,
} from './command-output.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { joinCut } from './head-tail-text.js';
import { formatBytes, formatCount, formatDuration } from './human-units.js';
import { type ResolvedLimits, resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { logStateLine, readLogWindow } from './task-log.js';
import { readableOutput } from './terminal-text.js';
import { errorResult, ToolFailure, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions, ToolResult, ToolSession } from './types.js';

/** A command with its stdin open waits for input: return its first words soon, not after the usual yield. */
const OPEN_STDIN_YIELD_MS = 1000;

/** The largest per-call `max_output_chars`. */
const MAX_OUTPUT_CHARS = 100_000;

/** The `bash` tool. */
export function createBashTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  const outputDir = options.outputDir;
  return defineTool({
    name: 'bash',
    description: bashDescription(limits, context),
    fields: {
      command: { type: 'string', required: true, description: 'The shell command to run.' },
      timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: limits.maxTimeoutMs,
        description: `Run in the foreground and kill it after this many ms (default ${limits.defaultTimeoutMs}). Not with run_in_background or yield_ms.`,
      },
      workdir: {
        type: 'string',
        description: 'Working directory: absolute, or relative to the default one.',
      },
      run_in_background: {
        type: 'boolean',
        description: 'Start it as a background task; returns its task id at once.',
      },
      yield_ms: {
        type: 'integer',
        minimum: 0,
        maximum: limits.maxTimeoutMs,
        description: 'Wait up to this many ms; a command still running then continues in the background.',
      },
      open_stdin: {
        type: 'boolean',
        description: `Keep its stdin open for task_write (a REPL, a prompt): a background task; yield_ms defaults to ${OPEN_STDIN_YIELD_MS}.`,
      },
      max_output_chars: {
        type: 'integer',
        minimum: 200,
        maximum: MAX_OUTPUT_CHARS,
        description: `Characters of output to show at most (default ${limits.outputBudgetChars}).`,
      },
      description: {
        type: 'string',
        allowEmpty: true,
        description: 'What the command does, for people; ignored.',
      },
    },
    example: { command: 'npm test', timeout_ms: 300000, workdir: 'packages/core' },
    annotations: {
      title: 'Run shell command',
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    },
    async run(args, signal) {
      const cwd = args.workdir === undefined ? undefined : resolveContextPath(handle, args.workdir);
      const background = args.run_in_background === true;
      if (background && args.yield_ms !== undefined)
        return errorResult(
          'Give either run_in_background (return at once) or yield_ms (wait up to N ms, then continue in the background), not both. Example: {"command": "npm run dev", "yield_ms": 5000}',
        );
      if ((background || args.yield_ms !== undefined) && args.timeout_ms !== undefined)
        return errorResult(
          'timeout_ms applies to foreground commands only; a background task runs until it exits or task_kill stops it. Drop timeout_ms, or drop run_in_background/yield_ms to run in the foreground with a timeout.',
        );
      const openStdin = args.open_stdin === true;
      if (openStdin && args.timeout_ms !== undefined)
        return errorResult(
          'open_stdin runs the command as a background task that task_write sends input to; timeout_ms is for foreground commands. Drop timeout_ms (stop the task with task_kill), or drop open_stdin.',
        );
      if (openStdin && !context.capabilities.backgroundStdin)
        return errorResult(
          `This ${context.type} context cannot keep a command's stdin open, so open_stdin is not available. Pass the input in the command instead (a here-document, or printf '...' | command).`,
        );
      const callLimits =
        args.max_output_chars === undefined
          ? limits
          : { ...limits, outputBudgetChars: args.max_output_chars };
      const state = {
        context,
        handle,
        limits: callLimits,
        session,
        outputDir,
        onExit: options.onBackgroundExit,
        openStdin,
      };
      try {
        if (background) return await startBackground(state, args.command, cwd);
        const yieldMs =
          args.yield_ms ??
          (args.timeout_ms === undefined
            ? openStdin
              ? OPEN_STDIN_YIELD_MS
              : defaultYield(limits, context)
            : null);
        if (yieldMs !== null) return await runWithYield(state, args.command, cwd, yieldMs, signal);
        return await runForeground(
          state,
          args.command,
          cwd,
          args.timeout_ms ?? limits.defaultTimeoutMs,
          signal,
        );
      } catch (error) {
        if (cwd !== undefined && error instanceof SpawnError && error.reason === 'bad-cwd')
          throw new ToolFailure(
            `workdir ${JSON.stringify(args.workdir)} (${cwd}) ${error.errno === 'ENOTDIR' ? 'is not a directory' : error.errno === 'EACCES' || error.errno === 'EPERM' ? 'cannot be entered' : 'does not exist'}. ` +
              `Give an existing directory, absolute or relative to ${handle.cwd}; list_dir shows what is there.`,
          );
        throw error;
      }
    },
  });
}

/** The default `yield_ms`, where the context can move a command to the background. */
function defaultYield(limits: ResolvedLimits, context: ExecutionContext): number | null {
  return limits.defaultYieldMs !== null && context.capabilities.background ? limits.defaultYieldMs : null;
}

function bashDescription(limits: ResolvedLimits, context: ExecutionContext): string {
  const yieldMs = defaultYield(limits, context);
  const timing =
    yieldMs === null
      ? `Returns stdout, then stderr after a [stderr] line, the exit code and duration. Killed after timeout_ms (default ${limits.defaultTimeoutMs}).`
      : `Returns its output (stdout and stderr come interleaved), exit code and duration. A command still running after ${formatDuration(yieldMs)} (or yield_ms) keeps running as a background task and you get its output so far and task id. ` +
        'With timeout_ms it stays in the foreground until then (stdout before [stderr]); progress notifications are sent, but a client with a shorter request timeout may give up first.';
  return [
    'Run a shell command (`/bin/sh -c`) in the workspace.',
    timing,
    'run_in_background: true returns a task id at once (dev servers, watchers). Background tasks are never killed by a timeout:',
    'read them with task_output, wait with task_wait, stop them with task_kill.',
    `Output over ${formatCount(limits.outputBudgetChars)} characters (or max_output_chars) is cut to its start and end, with a line saying where the full output is.`,
    'Each call is a fresh shell: `cd` and variables do not carry over (use workdir).',
    'Prefer read_file, edit_file, glob and grep over cat, sed, find and grep.',
  ].join(' ');
}

interface BashState {
  readonly context: ExecutionContext;
  readonly handle: ContextHandle;
  readonly limits: ResolvedLimits;
  readonly session: ToolSession;
  readonly outputDir: string | null | undefined;
  readonly onExit: ToolOptions['onBackgroundExit'];
  /** Start it with its stdin open for task_write. */
  readonly openStdin: boolean;
}

/** What `execBackground` gets for a command the bash tool starts. */
function backgroundOptions(state: BashState, cwd: string | undefined): BackgroundOptions {
  return { cwd, onExit: state.onExit, ...(state.openStdin ? { stdin: 'pipe' as const } : {}) };
}

/** The sentence that tells the model how to give a task input, when its stdin is open. */
function stdinHint(state: BashState, taskId: string): string {
  return state.openStdin
    ? ` Its stdin is open: send input with task_write ${JSON.stringify({ task_id: taskId, input: '...\n' })}.`
    : '';
}

async function runForeground(
  state: BashState,
  command: string,
  cwd: string | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { context, handle, limits, session, outputDir } = state;
  const result = await context.exec(handle, command, { cwd, timeoutMs, signal });
  const [outBudget, errBudget] = splitBudget(
    result.stdout.length,
    result.stderr.length,
    limits.outputBudgetChars,
  );
  const parts: string[] = [];
  const streams = [
    ['stdout', result.stdout, result.stdoutFacts, outBudget],
    ['stderr', result.stderr, result.stderrFacts, errBudget],
  ] as const;
  for (const [name, text, facts, budget] of streams) {
    if (text.length === 0) continue;
    const shown = await cutForModel(
      text,
      budget,
      name,
      execLocator(context, handle, facts, outputDir, session),
      facts,
    );
    const whole = shown === text ? await contextCut(context, handle, name, text, facts) : null;
    const readable = readableOutput(whole?.text ?? shown);
    const body = name === 'stderr' ? `[stderr]\n${readable}` : readable;
    parts.push(whole === null ? trimEnd(body) : `${trimEnd(body)}\n${whole.note}`);
  }
  if (parts.length === 0) parts.push('(no output)');
  parts.push(execStatusLine(result, timeoutMs));
  const failed = result.timedOut || result.aborted;
  return failed ? errorResult(parts.join('\n')) : textResult(parts.join('\n'));
}

async function startBackground(
  state: BashState,
  command: string,
  cwd: string | undefined,
): Promise<ToolResult> {
  const { context, handle } = state;
  const execBackground = requireMethod(
    context,
    'execBackground',
    'background tasks',
    'run the command in the foreground',
  );
  const task = await execBackground(handle, command, backgroundOptions(state, cwd));
  return textResult(
    [
      `Started background task ${task.id} (pid ${task.pid}).${stdinHint(state, task.id)}`,
      `Its output (stdout and stderr interleaved) goes to ${task.outputPath}.`,
      `Read it with task_output ${JSON.stringify({ task_id: task.id })}, wait for it with task_wait, stop it with task_kill.`,
    ].join('\n'),
  );
}

async function runWithYield(
  state: BashState,
  command: string,
  cwd: string | undefined,
  yieldMs: number,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { context, handle } = state;
  const execBackground = requireMethod(
    context,
    'execBackground',
    'background tasks',
    'drop yield_ms to run in the foreground',
  );
  const waitBackground = requireMethod(
    context,
    'waitBackground',
    'waiting for background tasks',
    'drop yield_ms',
  );
  const killBackground = requireMethod(
    context,
    'killBackground',
    'killing background tasks',
    'drop yield_ms',
  );
  const task = await execBackground(handle, command, backgroundOptions(state, cwd));
  try {
    return await yieldResult(state, task, yieldMs, signal, waitBackground, killBackground);
  } catch (error) {
    // A failure before the model learns the task id would orphan the task: end it first.
    await killBackground(handle, task.id).catch(() => undefined);
    throw error;
  }
}

async function yieldResult(
  state: BashState,
  task: BackgroundTask,
  yieldMs: number,
  signal: AbortSignal | undefined,
  waitBackground: NonNullable<ExecutionContext['waitBackground']>,
  killBackground: NonNullable<ExecutionContext['killBackground']>,
): Promise<ToolResult> {
  const { context, handle, limits, session } = state;
  const exit = await waitBackground(handle, task.id, { timeoutMs: yieldMs, signal });
  if (signal?.aborted) {
    // The caller will never learn the task id, so the task must not outlive the call.
    const killed = await killBackground(handle, task.id);
    return errorResult(
      `[Cancelled: the command was killed${killed !== null ? ` after ${formatDuration(killed.durationMs)}` : ''}.]`,
    );
  }
  // The log's two ends only, however large it grew: a whole read of it would load it all.
  const log = await readLogWindow(context, handle, task.outputPath, limits.outputBudgetChars);
  const show = (where: string) =>
    log.whole !== null
      ? cutForModel(log.whole, limits.outputBudgetChars, 'output', async () => ({ where }))
      : Promise.resolve(
          joinCut(
            { head: log.head, tail: log.tail, omittedChars: 0, omittedLines: 0 },
            // Only the ends were read: the bytes between are exact, their lines are not counted.
            `[… ${formatBytes(log.omittedBytes)} (${formatCount(log.omittedBytes)} bytes) of output omitted here. ${where} …]`,
          ),
        );
  const empty = log.totalBytes === 0;
  if (exit !== null) {
    session.settledTaskIds.add(task.id);
    const shown = await show(`Full output (${formatBytes(log.totalBytes)}): ${task.outputPath}`);
    const parts = [empty ? '(no output)' : trimEnd(readableOutput(shown))];
    const logState = logStateLine(exit);
    if (logState !== null) parts.push(logState);
    parts.push(exitStatusLine(exit));
    return textResult(parts.join('\n'));
  }
  const shown = await show(`Full output so far: ${task.outputPath}`);
  // A log that stopped being written while the task runs on says so now, not at its end.
  const running = (await context.listBackground?.(handle))?.find((info) => info.id === task.id);
  const logState = running ? logStateLine(running) : null;
  return textResult(
    [
      empty ? '(no output yet)' : trimEnd(readableOutput(shown)),
      ...(logState === null ? [] : [logState]),
      `[Still running after ${formatDuration(yieldMs)}: moved to the background as task ${task.id} (pid ${task.pid}). ` +
        `Its output goes to ${task.outputPath}.${stdinHint(state, task.id)} Continue reading with task_output ${JSON.stringify({ task_id: task.id, offset: log.nextOffset })}; ` +
        'wait with task_wait; stop it with task_kill.]',
    ].join('\n'),
  );
}

function trimEnd(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
