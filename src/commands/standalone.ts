/**
 * Run one command without a shell: the command gets a full {@link CommandContext} whose dispatcher
 * knows only the commands passed in. For tests of a single command, and for hosts that call a
 * command directly.
 * @module
 */

import type { Filesystem } from '../vfs/filesystem.js';
import { collectingWriter, emptyReader, readerFromBytes } from './byte-io.js';
import type { ByteReader, CommandContext, CommandDispatch, CommandHandler, CommandKind } from './command.js';
import { createCooperate } from './cooperate.js';

export interface StandaloneOptions {
  /** `argv[0]` is the command's name. */
  readonly argv: readonly string[];
  readonly fs: Filesystem;
  readonly stdin?: Uint8Array | ByteReader | undefined;
  /** Default `/`. */
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Commands `dispatch.run` can reach (by name). */
  readonly commands?: ReadonlyMap<string, CommandHandler> | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Cap on each collected stream; default 64 MiB. */
  readonly maxOutputBytes?: number | undefined;
  /** Optional context fields (`identity`, `volumes`), for this command and what it runs. */
  readonly context?: Partial<Pick<CommandContext, 'identity' | 'volumes'>> | undefined;
}

export interface StandaloneResult {
  readonly status: number;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  /** The value the command attached to its stdout, if any. */
  readonly data: unknown;
}

/** Run `handler` to completion and collect its output. */
export async function runStandalone(
  handler: CommandHandler,
  options: StandaloneOptions,
): Promise<StandaloneResult> {
  const stdout = collectingWriter({ maxBytes: options.maxOutputBytes });
  const stderr = collectingWriter({ maxBytes: options.maxOutputBytes });
  const commands = options.commands ?? new Map<string, CommandHandler>();
  const env = new Map(Object.entries(options.env ?? {}));
  const cwd = options.cwd ?? '/';
  const signal = options.signal ?? new AbortController().signal;
  const cooperate = createCooperate();
  const dispatch: CommandDispatch = {
    classify: (name: string): CommandKind => (commands.has(name) ? 'command' : 'not-found'),
    run: async (argv, io) => {
      const next = commands.get(argv[0] ?? '');
      if (next === undefined) return 127;
      return invoke(next, {
        argv,
        stdin: io.stdin,
        stdout: io.stdout,
        stderr: io.stderr,
        env: io.env ?? env,
        cwd: io.cwd ?? cwd,
        fs: options.fs,
        signal: io.signal ?? signal,
        dispatch,
        cooperate,
        ...options.context,
      });
    },
  };
  const stdin =
    options.stdin === undefined
      ? emptyReader()
      : options.stdin instanceof Uint8Array
        ? readerFromBytes(options.stdin)
        : options.stdin;
  const status = await invoke(handler, {
    argv: options.argv,
    stdin,
    stdout,
    stderr,
    env,
    cwd,
    fs: options.fs,
    signal,
    dispatch,
    cooperate,
    ...options.context,
  });
  await stdout.close();
  await stderr.close();
  return { status, stdout: stdout.bytes(), stderr: stderr.bytes(), data: stdout.attached };
}

/** A command that throws is a bug: report it on stderr and give status 1, never crash the host. */
async function invoke(handler: CommandHandler, ctx: CommandContext): Promise<number> {
  try {
    const status = await handler(ctx);
    return Number.isInteger(status) ? status & 0xff : 1;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await ctx.stderr
      .write(new TextEncoder().encode(`${ctx.argv[0] ?? 'command'}: internal error: ${message}\n`))
      .catch(() => {});
    return 1;
  }
}
