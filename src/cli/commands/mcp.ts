/**
 * `berth mcp`: serve the agent tools over MCP, on stdio (default) or loopback Streamable HTTP.
 * @module
 */
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '../../errors/index.js';
import { createMcpServer, MCP_DEFAULT_YIELD_MS } from '../../mcp/index.js';
import { createReviewTools, createTools } from '../../tools/index.js';
import { type CommandSpec, type FlagValues, formatHelp, parseArgs, stringFlag } from '../args.js';
import {
  CONTEXT_DETAILS,
  CONTEXT_FLAGS,
  chooseContext,
  type OpenContext,
  openContext,
} from '../context-setup.js';
import { parseDuration } from '../duration.js';
import type { CliIo } from '../io.js';
import { checkReportJson, checkReportText, sandboxStateOf } from '../mcp-check-report.js';
import { carriedEnv, contextArgs, installKind, serverEntry } from '../mcp-client-config.js';
import { withSpinner } from '../spinner.js';
import { onTerminationSignal, untilTerminationSignal } from '../termination-signals.js';
import { berthVersion } from '../version.js';

/** Environment variable holding the HTTP bearer token (a flag would show it in `ps`). */
export const TOKEN_ENV = 'BERTH_MCP_TOKEN';

/** Per-step limit of `--check`: generous, as a container may take a while to start. */
const DEFAULT_CHECK_STEP_TIMEOUT = '60s';

export const mcpSpec: CommandSpec = {
  name: 'berth mcp',
  summary: 'serve the agent tools (bash, files, search, tasks) to an MCP client',
  usage: ['[options]', '--http PORT [options]', '--check [--json] [options]'],
  positionals: 'none',
  flags: {
    ...CONTEXT_FLAGS,
    http: {
      type: 'string',
      value: 'PORT',
      description: 'serve Streamable HTTP on 127.0.0.1:PORT (0 picks a free port) instead of stdio',
    },
    check: {
      type: 'boolean',
      description:
        'do not serve: start berth mcp as an MCP client would, call bash and list_dir, report, and print the client configuration',
    },
    json: { type: 'boolean', description: 'with --check: print the report as JSON' },
    timeout: {
      type: 'string',
      value: 'DURATION',
      description: `with --check: limit for each step (default ${DEFAULT_CHECK_STEP_TIMEOUT})`,
    },
    'allow-commit': {
      type: 'boolean',
      description:
        'virtual context: give the agent a commit tool too (by default only a person commits, with berth commit)',
    },
  },
  details: `stdio (default): the MCP client starts berth and talks over stdin/stdout. Register it with:
  { "mcpServers": { "berth": { "command": "npx", "args": ["berth", "mcp"] } } }
berth mcp --check prints the exact entry for this install and directory.

--check: starts \`berth mcp\` with the same options as a child process over stdio, connects the
official MCP SDK client to it, lists the tools, calls bash (${JSON.stringify('echo hello from berth && pwd')})
and list_dir on the root, and reports what the model saw, the context and sandbox state, and the
time taken; then prints the client configuration. Exit status 0 when every step worked, 1 when
one failed (the report says which and why), 2 for a usage error.

--http: listens on 127.0.0.1 only. Every request needs "Authorization: Bearer TOKEN"; the token
comes from $${TOKEN_ENV} or is generated, and is printed to stderr with the URL. Requests whose
Host or Origin is not this loopback address are refused (DNS rebinding).

Background tasks started through the tools end when berth mcp exits.

--context virtual: the agent works on a copy-on-write view of --root, kept in a session (a new
one, or --session NAME); the tools changes and diff let it review its own work. From another
terminal, while the server runs or after it stopped: berth changes, berth diff, berth commit,
berth discard (in --root, or with --session ID).

${CONTEXT_DETAILS}`,
};

/** TERM → KILL grace for the work still running when the server stops (well within 2 s). */
export const SHUTDOWN_GRACE_MS = 1000;

/** `berth mcp` */
export async function mcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, mcpSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(mcpSpec));
    return 0;
  }
  if (parsed.flags.check === true) {
    if (parsed.flags.http !== undefined) {
      throw new InvalidArgumentError('--check', 'checks the stdio server and cannot be combined with --http');
    }
    return checkCommand(parsed.flags, io);
  }
  for (const name of ['json', 'timeout']) {
    if (parsed.flags[name] !== undefined) {
      throw new InvalidArgumentError(`--${name}`, 'applies to berth mcp --check only; add --check');
    }
  }
  const httpText = stringFlag(parsed.flags, 'http');
  const port = httpText === undefined ? undefined : parsePort(httpText);
  const token = io.env[TOKEN_ENV] || undefined;

  const allowCommit = parsed.flags['allow-commit'] === true;
  if (allowCommit && stringFlag(parsed.flags, 'context') !== 'virtual') {
    throw new InvalidArgumentError(
      '--allow-commit',
      'applies to the virtual context only; add --context virtual',
    );
  }
  const open = await openContext(parsed.flags, io, { keepSession: true });
  try {
    const toolOptions = { context: open.context, handle: open.handle, defaultYieldMs: MCP_DEFAULT_YIELD_MS };
    const tools = [...createTools(toolOptions), ...createReviewTools(toolOptions, { allowCommit })];
    const server = createMcpServer({
      context: open.context,
      handle: open.handle,
      tools,
      name: 'berth',
      version: berthVersion(),
      instructions: instructionsFor(open.description, open.handle.cwd, open.session?.id),
    });
    const stopped = untilTerminationSignal();
    try {
      if (port === undefined) {
        const connection = await server.connectStdio({ stdin: io.stdin, stdout: io.stdout });
        io.stderr.write(`berth mcp: serving ${tools.length} tools on stdio (${open.description})\n`);
        // A client that vanished turns our next write into EPIPE: that is a hang-up, not a crash.
        const stdoutFailed = new Promise<void>((resolve) => io.stdout.once('error', () => resolve()));
        await Promise.race([connection.closed, stopped.promise, stdoutFailed]);
        await connection.close();
      } else {
        const endpoint = await server.listenHttp({ port, ...(token ? { token } : {}) });
        const config = {
          mcpServers: {
            berth: {
              type: 'http',
              url: endpoint.url,
              headers: { Authorization: `Bearer ${endpoint.token}` },
            },
          },
        };
        io.stderr.write(
          `berth mcp: serving ${tools.length} tools at ${io.err.bold(endpoint.url)} (${open.description})\n` +
            `token: ${endpoint.token}\n` +
            `client configuration:\n${JSON.stringify(config, null, 2)}\n` +
            'press Ctrl-C to stop\n',
        );
        await stopped.promise;
        await endpoint.close();
      }
    } finally {
      stopped.dispose();
    }
    await shutDown(open);
    return 0;
  } finally {
    await open.dispose();
  }
}

/**
 * Stop within what clients give a server: the SDK's stdio client closes stdin, waits 2 s, then
 * sends SIGTERM and waits 2 s more before SIGKILL. Everything ends in parallel with a short grace
 * ({@link SHUTDOWN_GRACE_MS}), so the server is gone within the first 2 s; a termination signal
 * that arrives meanwhile cuts the grace to nothing (a second one exits at once, see
 * `installSignalGuard`; the exit hooks still kill every tree and remove the private files).
 */
async function shutDown(open: OpenContext): Promise<void> {
  const stopHearing = onTerminationSignal(() => void open.dispose({ graceMs: 0 }).catch(() => undefined));
  try {
    await open.dispose({ graceMs: SHUTDOWN_GRACE_MS });
  } finally {
    stopHearing();
  }
}

/** `berth mcp --check` */
async function checkCommand(flags: FlagValues, io: CliIo): Promise<number> {
  const stepTimeoutMs = parseDuration(
    stringFlag(flags, 'timeout') ?? DEFAULT_CHECK_STEP_TIMEOUT,
    '--timeout',
  );
  // Usage errors (a bad flag value, an implicit / root) are reported here, before anything starts.
  const choice = chooseContext(flags, io.cwd);
  const mainPath = fileURLToPath(new URL('../main.js', import.meta.url));
  const mcpArgs = contextArgs(flags, choice.root);
  // The server gets what an MCP client gives it: the SDK's few defaults (PATH, HOME, ...) plus the
  // variables the printed configuration sets; anything else in this shell would make the check lie.
  const env = carriedEnv(io.env);
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const stopListening = onTerminationSignal((signal) => {
    stoppedBy ??= signal;
    controller.abort();
  });
  // Loaded on use: the SDK client is not needed to serve.
  const { runMcpCheck } = await import('../mcp-check.js');
  try {
    const result = await withSpinner(
      'checking berth mcp',
      () =>
        runMcpCheck({
          command: process.execPath,
          args: [mainPath, 'mcp', ...mcpArgs],
          cwd: choice.root,
          env,
          stepTimeoutMs,
          signal: controller.signal,
        }),
      io.stderr,
    );
    const report = {
      result,
      sandbox: sandboxStateOf(choice, result),
      install: installKind(mainPath),
      entry: serverEntry(mainPath, mcpArgs, env),
    };
    io.stdout.write(
      flags.json === true
        ? `${JSON.stringify(checkReportJson(report), null, 2)}\n`
        : checkReportText(report, io.out),
    );
    if (!result.ok && flags.json !== true) {
      io.stderr.write(`${io.err.red('berth mcp --check:')} ${result.error ?? 'failed'}\n`);
    }
    if (stoppedBy !== undefined) return 128 + (constants.signals[stoppedBy] ?? 15);
    return result.ok ? 0 : 1;
  } finally {
    stopListening();
  }
}

/** What the client's model should know about where its commands run. */
function instructionsFor(description: string, cwd: string, session?: string): string {
  const lines = [
    `Commands and file tools run in berth: ${description}.`,
    `The working directory is ${cwd}; file tools refuse paths outside the workspace root.`,
  ];
  if (session !== undefined) {
    lines.push(
      `Your file changes stay in session ${session} until a person reviews and commits them; the changes and diff tools show what you changed.`,
    );
  }
  if (description.includes('network deny')) {
    lines.push(
      'Commands have no network access; if a task needs it, ask the user to restart berth with --network allow.',
    );
  }
  return lines.join(' ');
}

function parsePort(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new InvalidArgumentError(
      '--http',
      `must be a port number from 0 to 65535, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}
