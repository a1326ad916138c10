/**
 * How the commands that run commands (`env`, `xargs`, `timeout`, `nohup`, `nice`, `time`) start
 * one: through the shell's dispatcher only (its gate applies), with the GNU message and status for
 * a name that resolves to nothing (`env: 'x': No such file or directory`, 127).
 * @module
 */
import type { ByteReader, ByteWriter, CommandContext } from '../command.js';
import { printError } from '../text/cli.js';

export interface RunIo {
  readonly stdin?: ByteReader | undefined;
  readonly stdout?: ByteWriter | undefined;
  readonly stderr?: ByteWriter | undefined;
  readonly env?: ReadonlyMap<string, string> | undefined;
  readonly cwd?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Run `argv`; when its name resolves to nothing, print `notFound(name)` (GNU's wording differs by
 * tool) and resolve 127 without running anything.
 */
export async function runThroughShell(
  ctx: CommandContext,
  argv: readonly string[],
  io: RunIo,
  notFound: (name: string) => string,
): Promise<number> {
  const name = argv[0] as string;
  if (ctx.dispatch.classify(name) === 'not-found') {
    await printError(ctx, notFound(name));
    return 127;
  }
  return ctx.dispatch.run(argv, {
    stdin: io.stdin ?? ctx.stdin,
    stdout: io.stdout ?? ctx.stdout,
    stderr: io.stderr ?? ctx.stderr,
    env: io.env,
    cwd: io.cwd,
    signal: io.signal ?? ctx.signal,
  });
}
