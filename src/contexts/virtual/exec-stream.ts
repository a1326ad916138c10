/**
 * `execStream`: a live byte pipe to a long-lived script in the handle's kernel (a shell string, or
 * an argv array run as one simple command, without word splitting). Node streams at the edge,
 * the kernel's bounded byte pipes inside: a consumer that stops reading holds the script back
 * (backpressure), a consumer that goes away gives the script a broken pipe.
 * @module
 */
import { Readable, Writable } from 'node:stream';
import { createBytePipe } from '../../commands/byte-pipe.js';
import { BrokenPipeError, type ByteWriter } from '../../commands/command.js';
import { STREAM_OPTION_KEYS } from '../../contract/option-keys.js';
import type { ExecStream, StreamOptions } from '../../contract/types.js';
import {
  abortSignal,
  argvArray,
  commandString,
  envRecord,
  knownOptions,
  MAX_TIMER_MS,
} from '../../contract/validate-options.js';
import { shellJoin } from '../../subprocess/shell-quote.js';
import type { HandleState, LiveWork } from './handle-state.js';
import { workingDirectory } from './working-directory.js';

export async function openStream(
  state: HandleState,
  command: unknown,
  options: StreamOptions | undefined,
): Promise<ExecStream> {
  const script =
    typeof command === 'string' ? commandString(command) : shellJoin(argvArray(command, 'command'));
  const input = knownOptions(options, 'options', STREAM_OPTION_KEYS, 'execStream');
  const env = envRecord(input.env, 'options.env');
  const signal = abortSignal(input.signal, 'options.signal');
  const cwd = await workingDirectory(state, input.cwd, 'options.cwd');

  const toScript = createBytePipe();
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, done) {
      toScript.writer.write(new Uint8Array(chunk)).then(
        () => done(),
        // The script closed its stdin: what is written now has no reader, as with a real pipe.
        (error: unknown) => done(error instanceof BrokenPipeError ? brokenPipe() : (error as Error)),
      );
    },
    final(done) {
      toScript.writer.close().then(() => done(), done);
    },
    destroy(error, done) {
      void toScript.writer.close();
      done(error);
    },
  });
  const stdout = new ReadableSink();
  const stderr = new ReadableSink();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  const running = state.sideKernel.exec(script, {
    cwd,
    env,
    stdin: toScript.reader,
    stdout: stdout.writer,
    stderr: stderr.writer,
    timeoutMs: MAX_TIMER_MS,
    signal: stop.signal,
  });
  const exited = running.then(
    (result) => (result.aborted || result.terminatedBy !== null ? null : result.exitCode),
    () => null,
  );
  let killing: Promise<void> | undefined;
  const kill = (): Promise<void> => {
    killing ??= (async () => {
      stop.abort();
      await exited;
    })();
    return killing;
  };
  const work: LiveWork = { end: kill };
  state.live.add(work);
  void exited.then(() => {
    state.live.delete(work);
    signal?.removeEventListener('abort', onAbort);
    // Whatever the script left unclosed (a descriptor a trap still held) ends with it.
    stdout.end();
    stderr.end();
    void toScript.reader.close();
  });
  return { stdin, stdout: stdout.readable, stderr: stderr.readable, exited, kill };
}

function brokenPipe(): Error {
  return Object.assign(new Error('write EPIPE: the script closed its standard input'), { code: 'EPIPE' });
}

/** A kernel `ByteWriter` feeding a Node `Readable`, holding the writer while the reader lags. */
class ReadableSink {
  readonly readable: Readable;
  readonly writer: ByteWriter;
  private wake: (() => void) | undefined;
  private ended = false;
  private gone = false;

  constructor() {
    this.readable = new Readable({
      read: () => {
        const wake = this.wake;
        this.wake = undefined;
        wake?.();
      },
      destroy: (error, done) => {
        this.gone = true;
        const wake = this.wake;
        this.wake = undefined;
        wake?.();
        done(error);
      },
    });
    this.writer = {
      write: (bytes) => {
        if (this.gone || this.ended) return Promise.reject(new BrokenPipeError());
        // Node keeps the chunk: hand it a copy the writer may not reuse.
        if (this.readable.push(Buffer.from(bytes))) return Promise.resolve();
        return new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      },
      attachData: () => {},
      close: () => {
        this.end();
        return Promise.resolve();
      },
    };
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.gone) this.readable.push(null);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
