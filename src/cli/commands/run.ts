/**
 * `berth run -- CMD...`: run one command in a context, stream its output live, exit with its status.
 * @module
 */
import { MAX_TIMER_MS } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { shellJoin } from '../../subprocess/shell-quote.js';
import { type CommandSpec, formatHelp, parseArgs, stringFlag } from '../args.js';
import { CONTEXT_DETAILS, CONTEXT_FLAGS, openContext } from '../context-setup.js';
import { parseDuration } from '../duration.js';
import { exitStatusOf } from '../exit-status.js';
import type { CliIo } from '../io.js';
import { keepSpills } from '../keep-spills.js';
import { readAllBounded } from '../read-stdin.js';
import { parseSize } from '../size.js';
import { onTerminationSignal } from '../termination-signals.js';

const MAX_STDIN_BYTES = 64 * 1024 * 1024;

export const runSpec: CommandSpec = {
  name: 'berth run',
  summary: 'run a command in a context and exit with its status',
  usage: ['[options] -- CMD [ARG...]', "[options] 'SHELL COMMAND LINE'"],
  positionals: 'command',
  flags: {
    ...CONTEXT_FLAGS,
    timeout: {
      type: 'string',
      value: 'DURATION',
      description:
        'kill the command and its children after this long (500ms, 30s, 2m, 1h); exit 124. Default: no limit',
    },
    json: {
      type: 'boolean',
      description: 'print the result (exit code, signal, timing, output facts) as JSON instead of streaming',
    },
    stdin: {
      type: 'boolean',
      description: "pass this process's stdin to the command (read to its end first)",
    },
    'max-output': {
      type: 'string',
      value: 'SIZE',
      description:
        'bytes of each stream kept in the --json result, as head + tail (64k, 10MiB; default 1MiB)',
    },
  },
  details: `One argument is run as a shell command line (pipes and globs work); several arguments are
quoted and run as one command with those arguments.

Exit status: the command's own; 124 when --timeout killed it; 128+N when signal N ended it
(130 after Ctrl-C); 2 for a usage error.

Examples:
  berth run -- npm test
  berth run --timeout 30s 'make -j4 && ./bin/check'
  berth run --json --no-sandbox -- ls -la

${CONTEXT_DETAILS}`,
};

/** `berth run` */
export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, runSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(runSpec));
    return 0;
  }
  if (parsed.positionals.length === 0) {
    throw new InvalidArgumentError('CMD', 'is missing; usage: berth run [options] -- CMD [ARG...]');
  }
  const timeoutText = stringFlag(parsed.flags, 'timeout');
  const timeoutMs = timeoutText === undefined ? undefined : parseDuration(timeoutText, '--timeout');
  const command = parsed.positionals.length === 1 ? parsed.positionals[0]! : shellJoin(parsed.positionals);
  const stdin = parsed.flags.stdin ? await readAllBounded(io.stdin, MAX_STDIN_BYTES, '--stdin') : undefined;
  const json = parsed.flags.json === true;
  const maxOutputText = stringFlag(parsed.flags, 'max-output');
  const maxOutputBytes = maxOutputText === undefined ? undefined : parseSize(maxOutputText, '--max-output');
  if (maxOutputBytes === 0) throw new InvalidArgumentError('--max-output', 'must be at least 1 byte');

  const open = await openContext(parsed.flags, io, { maxOutputBytes });
  const controller = new AbortController();
  let abortedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    abortedBy ??= signal;
    controller.abort();
  };
  const stopListening = onTerminationSignal(onSignal);
  // A reader that went away (`berth run -- yes | head`) ends the command rather than berth.
  const onPipeError = (): void => onSignal('SIGPIPE');
  io.stdout.on('error', onPipeError);
  let streamed = false;
  try {
    const result = await open.context.exec(open.handle, command, {
      // No --timeout: no limit, as in a shell (the context's default would kill long builds).
      timeoutMs: timeoutMs ?? MAX_TIMER_MS,
      signal: controller.signal,
      ...(stdin === undefined ? {} : { stdin }),
      ...(json
        ? {}
        : {
            onOutput: (chunk) => {
              streamed = true;
              (chunk.stream === 'stdout' ? io.stdout : io.stderr).write(chunk.text);
            },
          }),
    });
    if (json) {
      io.stdout.write(`${JSON.stringify(await keepSpills(result), null, 2)}\n`);
    } else if (!streamed) {
      // A context that cannot stream delivers the output with the result.
      io.stdout.write(result.stdout);
      io.stderr.write(result.stderr);
    }
    if (result.timedOut && !json) {
      io.stderr.write(`${io.err.yellow('berth:')} timed out after ${timeoutText}; the command was killed\n`);
    }
    return exitStatusOf(result, abortedBy);
  } finally {
    stopListening();
    io.stdout.off('error', onPipeError);
    await open.dispose();
  }
}
