/**
 * `execStream` in a remote sandbox, as the contract prescribes for PTY-backed providers: the
 * command runs on the provider's pseudo-terminal, switched to `stty raw -echo` before its first
 * byte (no echo, no `\n` → `\r\n`, no line cap), so stdout arrives as the exact bytes. Its stdin is
 * a FIFO fed by the provider's stdin primitive (whose end is the command's end-of-file, which a raw
 * PTY cannot send), and its stderr goes to a second FIFO that a second raw PTY reads with `cat`:
 * exact bytes again, ending when the last writer closes it, and never kept by the SDK.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { ExecStream } from '../../contract/types.js';
import { IoError, NotFoundError } from '../../errors/index.js';
import { readControlLines } from './control-lines.js';
import { newNonce, STREAM_SETUP_SCRIPT, shLine, streamRunScript } from './scripts.js';
import { StreamQueue } from './stream-queue.js';
import type { RemotePty, RemoteSandbox, RemoteStdin } from './transport.js';
import { newExecTag, terminateTagged } from './tree-termination.js';

export interface RemoteStreamSpec {
  readonly sandbox: RemoteSandbox;
  readonly stateDir: string;
  readonly cwd: string;
  /** The command as a shell line (a string command under `/bin/sh -c`, or a quoted argv). */
  readonly commandLine: string;
  /** `export`/`unset` lines for the command's environment. */
  readonly exports: string;
  readonly graceMs: number;
  readonly signal: AbortSignal | undefined;
  readonly classify: (error: unknown) => Error;
  readonly onClosed: () => void;
}

/** Bytes kept while looking for the start marker (the shell's prompt and echo come before it). */
const MAX_PREAMBLE_BYTES = 1024 * 1024;

/**
 * A PTY data listener that drops everything up to and including the line `<nonce><suffix>` (the
 * shell's prompt, the echo of what was typed), then passes bytes on, with `deliver`'s promise as
 * the PTY's backpressure.
 */
function afterMarker(
  nonce: string,
  deliver: (bytes: Uint8Array) => Promise<void> | undefined,
  suffix = '-x',
): (bytes: Uint8Array) => Promise<void> | undefined {
  let started = false;
  let preamble = Buffer.alloc(0);
  const marker = Buffer.from(`${nonce}${suffix}`, 'utf8');
  return (bytes) => {
    if (started) return deliver(bytes);
    preamble = Buffer.concat([preamble, bytes]);
    const at = preamble.indexOf(marker);
    if (at === -1) {
      if (preamble.length > MAX_PREAMBLE_BYTES) preamble = preamble.subarray(-marker.length - 2);
      return undefined;
    }
    let rest = preamble.subarray(at + marker.length);
    // The marker line ends in \n in raw mode (\r\n if stty could not run).
    if (rest[0] === 0x0d) rest = rest.subarray(1);
    if (rest[0] !== 0x0a) return undefined;
    started = true;
    preamble = Buffer.alloc(0);
    return deliver(rest.subarray(1));
  };
}

/** A stream, plus how berth ends it and the tag its tree carries. */
export interface OpenedStream extends ExecStream {
  terminate(): Promise<void>;
  /** The `BERTH_EXEC` tag of every process of the stream's tree. */
  readonly tag: string;
  /** The PTY process's pid inside the sandbox (0 when the provider does not tell). */
  readonly pid: number;
}

export async function openRemoteStream(spec: RemoteStreamSpec): Promise<OpenedStream> {
  const id = `s${randomBytes(8).toString('hex')}`;
  const nonce = newNonce();
  const tag = newExecTag();
  const base = `${spec.stateDir}/${id}`;
  const script = streamRunScript({
    cwd: spec.cwd,
    nonce,
    stdinFifo: `${base}.in`,
    stderrFifo: `${base}.err`,
    exports: `${spec.exports}export BERTH_EXEC=${tag}`,
    command: spec.commandLine,
  });
  const setupNonce = newNonce();
  const setup = await spec.sandbox
    .run({
      script: shLine(STREAM_SETUP_SCRIPT, 'berth-stream-setup', [
        spec.stateDir,
        id,
        script,
        spec.cwd,
        setupNonce,
      ]),
      timeoutMs: 60_000,
    })
    .catch((error: unknown) => {
      throw spec.classify(error);
    });
  const setupLines = readControlLines(setup.stdout, setupNonce);
  if (setupLines.some((line) => line.kind === 'fail' && line.argument === 'cwd'))
    throw new NotFoundError(spec.cwd, 'working directory');
  if (!setupLines.some((line) => line.kind === 'ok')) {
    throw new IoError(`could not prepare the stream's FIFO in ${spec.stateDir} inside the sandbox`);
  }

  const stdout = new StreamQueue('execStream stdout');
  const stderr = new StreamQueue('execStream stderr');
  let feeder: RemoteStdin | undefined;
  let errorPty: RemotePty | undefined;
  let pty: RemotePty | undefined;
  try {
    // The readers and the writer first: the command's shell blocks opening each FIFO until then.
    feeder = await spec.sandbox.openStdin(`${base}.in`);
    const errorNonce = newNonce();
    errorPty = await spec.sandbox.openPty({
      cols: 200,
      rows: 50,
      cwd: spec.cwd,
      onData: afterMarker(errorNonce, (bytes) => stderr.offer(bytes)),
    });
    // The echo of this line shows "<nonce>- x"; only the printf's output has the marker whole.
    await errorPty.write(
      Buffer.from(`stty raw -echo; printf '%s%s\\n' ${errorNonce}- x; exec cat '${base}.err'\r`, 'utf8'),
    );
    pty = await spec.sandbox.openPty({
      cols: 200,
      rows: 50,
      cwd: spec.cwd,
      onData: afterMarker(nonce, (bytes) => stdout.offer(bytes), ''),
    });
    await pty.write(Buffer.from(`exec /bin/sh '${base}.sh'\r`, 'utf8'));
  } catch (error) {
    await Promise.all([feeder?.kill(), errorPty?.kill(), pty?.kill()].map((p) => p?.catch(() => undefined)));
    await terminateTagged(spec.sandbox, tag, 0);
    throw spec.classify(error);
  }
  const live = { pty, feeder, errorPty };
  const errorEnded = live.errorPty.exited.then(() => stderr.close());
  const exited = live.pty.exited.then(async (code) => {
    stdout.close();
    // stderr ends when every writer of its FIFO is gone; a leftover holding it gets 2 s.
    const bound = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
    await Promise.race([errorEnded, bound]);
    await live.errorPty.kill().catch(() => undefined);
    stderr.close();
    await live.feeder.kill().catch(() => undefined);
    spec.onClosed();
    return code;
  });
  let writes: Promise<void> = Promise.resolve();
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes = writes.then(() => live.feeder.write(new Uint8Array(chunk)));
      writes.then(
        () => callback(),
        (error: unknown) => callback(spec.classify(error)),
      );
    },
    final(callback) {
      writes = writes.then(() => live.feeder.end());
      writes.then(
        () => callback(),
        () => callback(),
      );
    },
  });
  stdin.on('error', () => undefined);
  let ending: Promise<void> | undefined;
  const terminate = () => {
    ending ??= (async () => {
      await terminateTagged(spec.sandbox, tag, spec.graceMs);
      await live.pty.kill().catch(() => undefined);
      await live.feeder.kill().catch(() => undefined);
      await live.errorPty.kill().catch(() => undefined);
    })();
    return ending;
  };
  if (spec.signal) {
    if (spec.signal.aborted) void terminate();
    else spec.signal.addEventListener('abort', () => void terminate(), { once: true });
  }
  return {
    stdin,
    stdout,
    stderr,
    exited,
    kill: async () => {
      await terminate();
      await exited;
    },
    terminate,
    tag,
    pid: live.pty.pid,
  };
}
