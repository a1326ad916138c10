/**
 * `berth mcp --check`: start the real `berth mcp` as a child process over stdio, drive it with the
 * official MCP SDK client the way an agent's client would, and report what happened.
 * @module
 */

import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { ByteTail } from '../mcp/byte-tail.js';
import { formatDuration } from './duration.js';
import { berthVersion } from './version.js';

/** The harmless command the check runs through the `bash` tool, and what its output must contain. */
export const CHECK_COMMAND = 'echo hello from berth && pwd';
export const CHECK_ECHO = 'hello from berth';

/** One step of the check. */
export interface CheckStep {
  readonly name: 'start' | 'list_tools' | 'bash' | 'list_dir' | 'stop';
  readonly ok: boolean;
  readonly durationMs: number;
  /** Why it failed. */
  readonly error?: string;
}

/** A tool call the check made, with exactly the text the model would read. */
export interface CheckCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly isError: boolean;
  readonly text: string;
  readonly durationMs: number;
}

/** What `runMcpCheck` found. */
export interface McpCheckResult {
  readonly ok: boolean;
  /** The first failure, stated for a person; absent when `ok`. */
  readonly error?: string;
  readonly durationMs: number;
  readonly server: {
    readonly command: string;
    readonly args: readonly string[];
    readonly pid: number | null;
  };
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** The server's own description of its context (from its instructions). */
  readonly context?: string;
  readonly tools: readonly string[];
  readonly calls: readonly CheckCall[];
  readonly steps: readonly CheckStep[];
  /** The server's stderr (its status line, any warning), last 16 KiB. */
  readonly serverStderr: string;
}

export interface McpCheckOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Added to the SDK's default environment for the server (as an MCP client does with its `env`). */
  readonly env: Readonly<Record<string, string>>;
  /** Limit for each step; the whole check is bounded by 5 steps of this. */
  readonly stepTimeoutMs: number;
  /** Aborting stops the check at the current step and ends the server. */
  readonly signal?: AbortSignal | undefined;
}

const CHECK_OPTION_KEYS = optionKeys<McpCheckOptions>({
  command: true,
  args: true,
  cwd: true,
  env: true,
  stepTimeoutMs: true,
  signal: true,
});
const STDERR_TAIL_BYTES = 16 * 1024;

/** Run the check. Never throws for a failure of the server: the result says what failed and why. */
export async function runMcpCheck(options: McpCheckOptions): Promise<McpCheckResult> {
  knownOptions(options, 'options', CHECK_OPTION_KEYS, 'runMcpCheck');
  const started = performance.now();
  const stderrTail = new ByteTail(STDERR_TAIL_BYTES);
  const transport = new StdioClientTransport({
    command: options.command,
    args: [...options.args],
    cwd: options.cwd,
    env: { ...options.env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderrTail.push(chunk));
  const client = new Client({ name: 'berth-mcp-check', version: berthVersion() });
  const steps: CheckStep[] = [];
  // The SDK spawns the server synchronously inside connect(); keep the process object, which the
  // transport drops when the server exits, to state how it ended.
  let server: ChildState | undefined;
  let pid: number | null = null;
  const calls: CheckCall[] = [];
  let tools: string[] = [];
  let failure: string | undefined;
  const requestOptions = {
    timeout: options.stepTimeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  };

  const step = async (name: CheckStep['name'], body: () => Promise<void>): Promise<boolean> => {
    if (failure !== undefined) return false;
    const stepStarted = performance.now();
    try {
      if (options.signal?.aborted) throw new Error('interrupted');
      await body();
      steps.push({ name, ok: true, durationMs: elapsed(stepStarted) });
      return true;
    } catch (error) {
      failure = describeFailure(name, error, options, childExit(server), stderrTail.text());
      steps.push({ name, ok: false, durationMs: elapsed(stepStarted), error: failure });
      return false;
    }
  };

  const callTool = async (tool: string, args: Record<string, unknown>): Promise<CheckCall> => {
    const callStarted = performance.now();
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, requestOptions)) as {
      content?: { type: string; text?: string }[];
      isError?: boolean;
    };
    const text = (result.content ?? [])
      .map((block) => (block.type === 'text' ? (block.text ?? '') : `[${block.type} content]`))
      .join('\n');
    const call = {
      tool,
      arguments: args,
      isError: result.isError === true,
      text,
      durationMs: elapsed(callStarted),
    };
    calls.push(call);
    if (call.isError) throw new Error(`the ${tool} tool answered with an error: ${firstLines(text, 3)}`);
    return call;
  };

  await step('start', async () => {
    const connecting = client.connect(transport, requestOptions);
    server = child(transport);
    pid = transport.pid;
    await connecting;
  });
  await step('list_tools', async () => {
    tools = (await client.listTools(undefined, requestOptions)).tools.map((tool) => tool.name);
    for (const needed of ['bash', 'list_dir']) {
      if (!tools.includes(needed)) throw new Error(`the server does not serve the ${needed} tool`);
    }
  });
  await step('bash', async () => {
    const call = await callTool('bash', { command: CHECK_COMMAND });
    if (!call.text.includes(CHECK_ECHO)) {
      throw new Error(`bash ran, but its output lacks "${CHECK_ECHO}": ${firstLines(call.text, 3)}`);
    }
  });
  await step('list_dir', async () => {
    await callTool('list_dir', { path: '.' });
  });
  const serverVersion = client.getServerVersion();
  const instructions = client.getInstructions();
  // Closing stdin is how a client stops a stdio server; it must then exit on its own.
  const stopStarted = performance.now();
  await client.close().catch(() => undefined);
  // After a failed handshake the SDK closes in the background and forgets the process; never
  // leave before the server is gone.
  await untilExited(server);
  if (failure === undefined) {
    const stopped = childExit(server);
    if (stopped && stopped.code !== 0) {
      failure = `the server did not exit cleanly after its stdin closed (${
        stopped.code === null ? `signal ${stopped.signal}` : `exit code ${stopped.code}`
      })${stderrSuffix(stderrTail.text())}`;
    }
    steps.push({
      name: 'stop',
      ok: failure === undefined,
      durationMs: elapsed(stopStarted),
      ...(failure === undefined ? {} : { error: failure }),
    });
  }

  return {
    ok: failure === undefined,
    ...(failure === undefined ? {} : { error: failure }),
    durationMs: elapsed(started),
    server: { command: options.command, args: options.args, pid },
    ...(serverVersion ? { serverInfo: { name: serverVersion.name, version: serverVersion.version } } : {}),
    ...(instructions ? { context: contextFromInstructions(instructions) } : {}),
    tools,
    calls,
    steps,
    serverStderr: stderrTail.text(),
  };
}

/** The description `berth mcp` puts in its instructions: "... run in berth: DESCRIPTION. The ...". */
function contextFromInstructions(instructions: string): string {
  const match = /run in berth: (.+?)\. The working directory/.exec(instructions);
  return match?.[1] ?? instructions;
}

type ChildState = Pick<ChildProcess, 'exitCode' | 'signalCode' | 'once' | 'kill'>;

/** The SDK's own close escalates stdin EOF → SIGTERM after 2 s → SIGKILL after 4 s; allow for that. */
const SERVER_EXIT_WAIT_MS = 4500;

/**
 * The SDK transport's child process. The SDK does not expose it (only its pid), but its exit code is
 * the clearest fact when a server dies; without it the report still has the server's stderr.
 */
function child(transport: StdioClientTransport): ChildState | undefined {
  const value = (transport as unknown as { _process?: unknown })._process;
  return typeof value === 'object' && value !== null && 'exitCode' in value
    ? (value as ChildState)
    : undefined;
}

/** Wait for the server to exit; SIGKILL it if it outlives the SDK's own shutdown sequence. */
async function untilExited(state: ChildState | undefined): Promise<void> {
  if (state === undefined || childExit(state) !== undefined) return;
  const exited = new Promise<void>((resolve) => state.once('exit', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), SERVER_EXIT_WAIT_MS);
  });
  const timedOut = await Promise.race([exited.then(() => false), late]);
  clearTimeout(timer);
  if (timedOut) {
    state.kill('SIGKILL');
    await exited;
  }
}

/** How the server ended, or undefined while it runs (or when unknown). */
function childExit(
  state: ChildState | undefined,
): { code: number | null; signal: string | null } | undefined {
  if (state === undefined || (state.exitCode === null && state.signalCode === null)) return undefined;
  return { code: state.exitCode, signal: state.signalCode };
}

function describeFailure(
  step: CheckStep['name'],
  error: unknown,
  options: McpCheckOptions,
  exit: { code: number | null; signal: string | null } | undefined,
  stderr: string,
): string {
  if (options.signal?.aborted) return `interrupted during the ${step} step`;
  const raw = error instanceof Error ? error.message : String(error);
  // The SDK's wording ("MCP error -32000: Connection closed") means little to a person.
  const message = /Connection closed/.test(raw)
    ? 'the server closed the connection'
    : /Request timed out/.test(raw)
      ? `no answer within ${formatDuration(options.stepTimeoutMs)} (--timeout)`
      : raw;
  const what = {
    start: 'starting the server and the MCP handshake (initialize)',
    list_tools: 'listing the tools',
    bash: 'calling the bash tool',
    list_dir: 'calling the list_dir tool',
    stop: 'stopping the server',
  }[step];
  const ended = exit
    ? ` (it ${exit.code === null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`})`
    : '';
  return `${what} failed: ${message}${ended}${stderrSuffix(stderr)}`;
}

/** The server's own last words, which usually say what went wrong. */
function stderrSuffix(stderr: string): string {
  const text = stderr.trim();
  if (text === '') return '';
  const lines = text.split('\n');
  const last = lines.slice(-8).join('\n');
  return `\nthe server's stderr${lines.length > 8 ? ' (last 8 lines)' : ''}:\n${last}`;
}

function firstLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines.slice(0, count).join(' | ') + (lines.length > count ? ' | ...' : '');
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
