/**
 * `execStream` over a hijacked exec connection: stdin goes up the socket (ending it half-closes the
 * connection, which the engine turns into the child's EOF), stdout and stderr come down as
 * multiplexed frames and are split into two byte streams with backpressure to the socket.
 * @module
 */
import { PassThrough, Writable } from 'node:stream';
import type { ExecStream } from '../../contract/types.js';
import { newExecTag, tagEnv } from '../shared/tagged-termination.js';
import type { EngineClient } from './engine-client.js';
import { createExec, startExecHijacked } from './engine-exec.js';
import { FrameDemuxer } from './frame-demuxer.js';
import { endIfOrphaned, hijackedTeardown } from './hijacked-teardown.js';
import { finalExitCode } from './run-exec.js';

/** What opening a stream needs. */
export interface StreamSpec {
  readonly client: EngineClient;
  readonly containerId: string;
  readonly argv: readonly string[];
  readonly env: readonly string[];
  readonly workingDir: string;
  readonly graceMs: number;
  readonly signal: AbortSignal | undefined;
  /** Called once the stream ended, so the context can forget it. */
  readonly onClosed: () => void;
}

/** Open the stream; resolves once the exec started. */
export async function openExecStream(spec: StreamSpec): Promise<ExecStream & { terminate(): Promise<void> }> {
  const tag = newExecTag();
  const execId = await createExec(spec.client, spec.containerId, {
    argv: spec.argv,
    env: [...spec.env, tagEnv(tag)],
    workingDir: spec.workingDir,
    stdin: true,
  });
  const { socket, head } = await startExecHijacked(spec.client, execId, false);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let paused = false;
  const resumeIfDrained = () => {
    if (paused && !stdout.writableNeedDrain && !stderr.writableNeedDrain) {
      paused = false;
      socket.resume();
    }
  };
  stdout.on('drain', resumeIfDrained);
  stderr.on('drain', resumeIfDrained);
  const demuxer = new FrameDemuxer((stream, payload) => {
    const target = stream === 2 || stream === 3 ? stderr : stdout;
    if (!target.write(Buffer.from(payload)) && !paused) {
      paused = true;
      socket.pause();
    }
  });
  const onChunk = (chunk: Buffer) => {
    try {
      demuxer.push(chunk);
    } catch (error) {
      socket.destroy(error as Error);
    }
  };
  if (head.length > 0) onChunk(head);
  socket.on('data', onChunk);
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.once('error', () => undefined);
  });
  const exited = closed.then(async () => {
    stdout.end();
    stderr.end();
    spec.onClosed();
    await endIfOrphaned(spec.client, execId, kill);
    return finalExitCode(spec.client, spec.containerId, execId).catch(() => null);
  });
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (socket.destroyed) {
        callback();
        return;
      }
      socket.write(chunk, (error) => callback(error ?? null));
    },
    final(callback) {
      if (!socket.destroyed) socket.end();
      callback();
    },
  });
  stdin.on('error', () => undefined);
  const kill = hijackedTeardown({ ...spec, tag, socket, closed });
  if (spec.signal) {
    // The abort has no caller to tell when the engine does not answer; kill() reports it.
    const ended = () => void kill().catch(() => undefined);
    if (spec.signal.aborted) ended();
    else spec.signal.addEventListener('abort', ended, { once: true });
  }
  return {
    stdin,
    stdout,
    stderr,
    exited,
    kill: async () => {
      await kill();
      await exited;
    },
    terminate: kill,
  };
}
