/**
 * `berth mcp`: serve the agent tools over MCP, on stdio (default) or loopback Streamable HTTP.
 * @module
 */
import { InvalidArgumentError } from '../../errors/index.js';
import { createMcpServer } from '../../mcp/index.js';
import { createTools } from '../../tools/index.js';
import { type CommandSpec, formatHelp, parseArgs, stringFlag } from '../args.js';
import { CONTEXT_DETAILS, CONTEXT_FLAGS, openContext } from '../context-setup.js';
import type { CliIo } from '../io.js';
import { untilTerminationSignal } from '../termination-signals.js';
import { berthVersion } from '../version.js';

/** Environment variable holding the HTTP bearer token (a flag would show it in `ps`). */
export const TOKEN_ENV = 'BERTH_MCP_TOKEN';

export const mcpSpec: CommandSpec = {
  name: 'berth mcp',
  summary: 'serve the agent tools (bash, files, search, tasks) to an MCP client',
  usage: ['[options]', '--http PORT [options]'],
  positionals: 'none',
  flags: {
    ...CONTEXT_FLAGS,
    http: {
      type: 'string',
      value: 'PORT',
      description: 'serve Streamable HTTP on 127.0.0.1:PORT (0 picks a free port) instead of stdio',
    },
  },
  details: `stdio (default): the MCP client starts berth and talks over stdin/stdout. Register it with:
  { "mcpServers": { "berth": { "command": "npx", "args": ["berth", "mcp"] } } }

--http: listens on 127.0.0.1 only. Every request needs "Authorization: Bearer TOKEN"; the token
comes from $${TOKEN_ENV} or is generated, and is printed to stderr with the URL. Requests whose
Host or Origin is not this loopback address are refused (DNS rebinding).

Background tasks started through the tools end when berth mcp exits.

${CONTEXT_DETAILS}`,
};

/** `berth mcp` */
export async function mcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, mcpSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(mcpSpec));
    return 0;
  }
  const httpText = stringFlag(parsed.flags, 'http');
  const port = httpText === undefined ? undefined : parsePort(httpText);
  const token = io.env[TOKEN_ENV] || undefined;

  const open = await openContext(parsed.flags, io);
  try {
    const tools = createTools({ context: open.context, handle: open.handle });
    const server = createMcpServer({
      context: open.context,
      handle: open.handle,
      tools,
      name: 'berth',
      version: berthVersion(),
      instructions: instructionsFor(open.description, open.handle.cwd),
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
    return 0;
  } finally {
    await open.dispose();
  }
}

/** What the client's model should know about where its commands run. */
function instructionsFor(description: string, cwd: string): string {
  const lines = [
    `Commands and file tools run in berth: ${description}.`,
    `The working directory is ${cwd}; file tools refuse paths outside the workspace root.`,
  ];
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
