#!/usr/bin/env node
/**
 * The `berth` command line.
 * @module
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { BerthError, InvalidArgumentError } from '../errors/index.js';
import { EXIT_USAGE } from './exit-status.js';
import { type CliIo, processIo } from './io.js';
import { installSignalGuard } from './termination-signals.js';
import { berthVersion } from './version.js';

const CLI_IO_KEYS = optionKeys<CliIo>({
  stdin: true,
  stdout: true,
  stderr: true,
  env: true,
  cwd: true,
  out: true,
  err: true,
});

type CommandRunner = (argv: readonly string[], io: CliIo) => Promise<number>;

/** Commands, loaded on use so `berth --help` never pays for the MCP SDK or the Docker client. */
const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<CommandRunner> }>> = {
  run: {
    summary: 'run a command in a context and exit with its status',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  mcp: {
    summary: 'serve the agent tools to an MCP client (stdio, or --http on loopback)',
    load: async () => (await import('./commands/mcp.js')).mcpCommand,
  },
  shell: {
    summary: 'open an interactive terminal in a context',
    load: async () => (await import('./commands/shell.js')).shellCommand,
  },
  tools: {
    summary: 'list the agent tools, or call one and print what the model sees',
    load: async () => (await import('./commands/tools.js')).toolsCommand,
  },
  doctor: {
    summary:
      'check node-pty, the process supervisor, the OS sandbox, the Docker engine, gVisor and the virtual context',
    load: async () => (await import('./commands/doctor.js')).doctorCommand,
  },
  changes: {
    summary: "list the changes a virtual session keeps (an agent's work, not yet on disk)",
    load: async () => (await import('./commands/session.js')).changesCommand,
  },
  diff: {
    summary: 'show the changes of a virtual session as a unified diff',
    load: async () => (await import('./commands/session.js')).diffCommand,
  },
  commit: {
    summary: "write a virtual session's changes to its directory",
    load: async () => (await import('./commands/session.js')).commitCommand,
  },
  discard: {
    summary: "drop a virtual session's changes",
    load: async () => (await import('./commands/session.js')).discardCommand,
  },
};

function topHelp(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)}${c.summary}`);
  return `berth ${berthVersion()} - the execution layer AI agents work in

Usage:
  berth <command> [options]

Commands:
${rows.join('\n')}

Options:
  -h, --help     show help (also: berth <command> --help)
  -V, --version  print the version

Quick start:
  berth mcp --check      start berth mcp as an MCP client would, call two tools,
                         print the configuration to register it with your client
  berth doctor           what works on this machine (sandbox, Docker, terminals)
  berth run -- ls -la
  berth tools call bash '{"command":"echo hello from berth"}'
`;
}

/** Run the CLI with `argv` (the words after `berth`); resolves with the exit status. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  knownOptions(io, 'io', CLI_IO_KEYS, 'main');
  const [name, ...rest] = argv;
  try {
    if (name === undefined) {
      io.stdout.write(topHelp());
      return EXIT_USAGE;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      // `berth help mcp` means `berth mcp --help`; `berth help tools call`, `berth tools call --help`.
      const [topic, ...sub] = rest;
      if (topic === undefined) {
        io.stdout.write(topHelp());
        return 0;
      }
      const command = COMMANDS[topic];
      if (command === undefined) {
        throw new InvalidArgumentError(
          JSON.stringify(topic),
          `is not a berth command to show help for; the commands are ${Object.keys(COMMANDS).join(', ')}`,
        );
      }
      // `--help` first: `berth help run rm -rf x` must never run anything.
      return await (await command.load())(topic === 'tools' ? [...sub, '--help'] : ['--help', ...sub], io);
    }
    if (name === '--version' || name === '-V') {
      if (rest.length > 0) {
        throw new InvalidArgumentError(
          JSON.stringify(rest[0]),
          `unexpected after ${name}, which takes nothing else`,
        );
      }
      io.stdout.write(`${berthVersion()}\n`);
      return 0;
    }
    const command = COMMANDS[name];
    if (command === undefined) {
      if (name.startsWith('-')) {
        throw new InvalidArgumentError(
          name,
          'unknown option; before a command berth takes only --help and --version. Options go after the command: berth <command> [options] (berth --help)',
        );
      }
      throw new InvalidArgumentError(
        JSON.stringify(name),
        `is not a berth command; the commands are ${Object.keys(COMMANDS).join(', ')} (berth --help)`,
      );
    }
    return await (await command.load())(rest, io);
  } catch (error) {
    return report(error, name, io);
  }
}

function report(error: unknown, name: string | undefined, io: CliIo): number {
  const prefix = io.err.red(`berth${name && name in COMMANDS ? ` ${name}` : ''}:`);
  if (error instanceof InvalidArgumentError) {
    io.stderr.write(`${prefix} ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof BerthError) {
    io.stderr.write(`${prefix} ${error.message} [${error.code}]\n`);
    return 1;
  }
  const text =
    error instanceof Error
      ? io.env.BERTH_DEBUG
        ? (error.stack ?? error.message)
        : error.message
      : String(error);
  io.stderr.write(`${prefix} ${text}\n`);
  return 1;
}

/** True when this module is the program being run (directly, or through the npm bin symlink). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  installSignalGuard();
  const status = await main(process.argv.slice(2));
  // Let stdout drain (a pipe may still hold output), then leave with the status.
  process.exitCode = status;
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(status);
  else process.stdout.write('', () => process.exit(status));
}
