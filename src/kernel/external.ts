/**
 * The external-command gate: off unless the host gives an `ExecutionContext` and says which
 * commands may leave the kernel (names, or a predicate over argv). An allowed command runs there
 * with the kernel's working directory mapped onto the host and the exported environment, its
 * stdin and stdout streamed (backpressure both ways), and it is ended with the call. The
 * dispatcher that `xargs`, `env` or `timeout` use goes through the same gate.
 * @module
 */
import type { ByteReader, ByteWriter } from '../commands/command.js';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { BerthError, InvalidArgumentError, SpawnError } from '../errors/index.js';
import { shellJoin } from '../subprocess/shell-quote.js';
import type { ExternalGate, ExternalRun } from './runtime/shell.js';

export interface ExternalCommands {
  /** Where allowed commands run (typically the sandboxed process context). */
  readonly context: ExecutionContext;
  /** The handle to run them in (spawned by the host). */
  readonly handle: ContextHandle;
  /** Command names that may run there, or a predicate over the whole argv. */
  readonly allow: readonly string[] | ((argv: readonly string[]) => boolean);
  /**
   * The host directory for a working directory of the kernel (default: the same path). A
   * command there sees the host's files, not the kernel's virtual filesystem, unless the two are
   * the same directory (an overlay's lower layer, committed first).
   */
  readonly mapCwd?: ((virtualCwd: string) => string | undefined) | undefined;
  /**
   * The virtual context only: `handle` is a process handle with a workspace overlay (the process
   * context's `overlay` option) over the virtual context's `root`, and the virtual workspace keeps
   * its changes in that overlay. The commands then see the virtual shell's changes, and it sees
   * theirs: one set of changes, reviewed and committed through either context. Working
   * directories in the workspace map onto the host's workspace unless `mapCwd` is given.
   * Default false.
   */
  readonly shareOverlay?: boolean | undefined;
}

export function createExternalGate(spec: ExternalCommands): ExternalGate {
  if (typeof spec.context?.exec !== 'function')
    throw new InvalidArgumentError('external.context', 'must be an ExecutionContext');
  if (spec.handle === undefined)
    throw new InvalidArgumentError('external.handle', 'is required (spawn one on the context first)');
  const allow = spec.allow;
  if (!Array.isArray(allow) && typeof allow !== 'function') {
    throw new InvalidArgumentError(
      'external.allow',
      'must be a list of command names or a predicate over argv',
    );
  }
  const names = Array.isArray(allow) ? new Set(allow as readonly string[]) : undefined;
  const allows = (argv: readonly string[]): boolean => {
    const name = argv[0];
    if (name === undefined || name === '') return false;
    if (names !== undefined) return names.has(name) || names.has(name.slice(name.lastIndexOf('/') + 1));
    try {
      return (allow as (argv: readonly string[]) => boolean)(argv) === true;
    } catch {
      return false;
    }
  };
  return {
    allows,
    async run(run: ExternalRun, io) {
      try {
        return await runOutside(spec, run, io);
      } catch (error) {
        // The context refused the command (a missing directory, a dead handle): the command
        // fails with the reason, as a shell reports what it cannot run; the kernel goes on.
        if (!(error instanceof BerthError)) throw error;
        const name = run.argv[0] ?? '';
        await io.stderr.write(new TextEncoder().encode(`${name}: ${error.message}\n`)).catch(() => {});
        return error instanceof SpawnError && error.reason === 'not-found' ? 127 : 126;
      }
    },
  };
}

async function runOutside(
  spec: ExternalCommands,
  run: ExternalRun,
  io: { stdin: ByteReader; stdout: ByteWriter; stderr: ByteWriter; signal: AbortSignal },
): Promise<number> {
  const cwd = spec.mapCwd === undefined ? run.cwd : spec.mapCwd(run.cwd);
  const env = Object.fromEntries(run.env);
  // The shell's PWD names the kernel's directory; where it runs elsewhere, it names that one
  // (a shell there would otherwise take the kernel's path for its own).
  if (cwd !== run.cwd && env.PWD === run.cwd) {
    if (cwd === undefined) delete env.PWD;
    else env.PWD = cwd;
  }
  if (spec.context.execStream !== undefined) return runStreamed(spec, run, cwd, env, io);
  const stdin = await readAllBounded(io.stdin, 64 * 1024 * 1024);
  const result = await spec.context.exec(spec.handle, shellJoin(run.argv), {
    cwd,
    env,
    stdin,
    signal: io.signal,
  });
  await io.stdout.write(new TextEncoder().encode(result.stdout)).catch(() => {});
  await io.stderr.write(new TextEncoder().encode(result.stderr)).catch(() => {});
  return result.exitCode ?? (result.timedOut ? 124 : 137);
}

async function runStreamed(
  spec: ExternalCommands,
  run: ExternalRun,
  cwd: string | undefined,
  env: Record<string, string>,
  io: { stdin: ByteReader; stdout: ByteWriter; stderr: ByteWriter; signal: AbortSignal },
): Promise<number> {
  const stream = await (spec.context.execStream as NonNullable<ExecutionContext['execStream']>)(
    spec.handle,
    run.argv,
    { cwd, env, signal: io.signal },
  );
  const onAbort = (): void => {
    void stream.kill();
  };
  io.signal.addEventListener('abort', onAbort, { once: true });
  const pumpIn = (async () => {
    try {
      for (;;) {
        const chunk = await io.stdin.read();
        if (chunk === null) break;
        if (!stream.stdin.write(chunk)) await new Promise((resolve) => stream.stdin.once('drain', resolve));
      }
    } catch {
      // stdin went away: close the child's
    }
    stream.stdin.end();
  })();
  const pumpOut = async (source: NodeJS.ReadableStream | undefined, sink: ByteWriter): Promise<void> => {
    if (source === undefined) return;
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      try {
        await sink.write(new Uint8Array(chunk));
      } catch {
        // the reader went away: stop reading (the child gets SIGPIPE when it writes)
        (source as unknown as { destroy?: () => void }).destroy?.();
        return;
      }
    }
  };
  try {
    const [code] = await Promise.all([
      stream.exited,
      pumpOut(stream.stdout, io.stdout),
      pumpOut(stream.stderr, io.stderr),
    ]);
    return code ?? 137;
  } finally {
    io.signal.removeEventListener('abort', onAbort);
    void pumpIn;
  }
}

async function readAllBounded(reader: ByteReader, max: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const c = await reader.read();
    if (c === null) break;
    size += c.length;
    if (size > max) throw new Error(`stdin of an external command exceeds ${max} bytes`);
    parts.push(c);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
