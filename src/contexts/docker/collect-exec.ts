/**
 * berth's own helper commands in a container (setup, listings): run argv, collect stdout whole up
 * to a byte cap, keep the end of stderr for messages. Not for user commands (those go through
 * `run-exec.ts` and the output policy).
 * @module
 */

import type { Readable } from 'node:stream';
import { IoError } from '../../errors/index.js';
import type { EngineClient } from './engine-client.js';
import {
  containerStopped,
  createExec,
  deathLikeStatus,
  inspectExec,
  startExecHijacked,
  startExecStream,
} from './engine-exec.js';
import { ContainerGoneError } from './errors.js';
import { FrameDemuxer } from './frame-demuxer.js';

/** What a helper command produced. */
export interface CollectedExec {
  readonly exitCode: number;
  readonly stdout: Buffer;
  /** The last 4 KiB of stderr, decoded. */
  readonly stderr: string;
}

const STDERR_KEEP = 4096;

/**
 * Run a helper command to completion.
 * @param maxStdoutBytes - stdout beyond this fails the call with `E_IO` (the caller names the fix).
 */
export async function collectExec(
  client: EngineClient,
  containerId: string,
  argv: readonly string[],
  options: {
    env?: readonly string[];
    workingDir?: string;
    user?: string;
    /**
     * The command's stdin (then EOF): bytes, or a stream piped in as the command reads it (its
     * error fails the call); absent = /dev/null.
     */
    stdin?: Uint8Array | Readable;
    maxStdoutBytes: number;
    what: string;
  },
): Promise<CollectedExec> {
  const execId = await createExec(client, containerId, {
    argv,
    env: options.env,
    workingDir: options.workingDir,
    user: options.user,
    stdin: options.stdin !== undefined,
  });
  let output: Readable;
  // A helper's output is part of the call that needs it: the call's patience covers it.
  const limits = { longLived: false };
  if (options.stdin !== undefined) {
    const { socket, head } = await startExecHijacked(client, execId, false, limits);
    if (head.length > 0) socket.unshift(head);
    const stdin = options.stdin;
    if (stdin instanceof Uint8Array) socket.end(stdin);
    else {
      stdin.once('error', (error) => socket.destroy(error));
      stdin.pipe(socket); // its end half-closes the connection: the command's EOF
    }
    output = socket;
  } else {
    output = await startExecStream(client, execId, false, limits);
  }
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = Buffer.alloc(0);
  let overflow = false;
  const demuxer = new FrameDemuxer((stream, payload) => {
    if (stream === 1) {
      stdoutBytes += payload.length;
      if (stdoutBytes > options.maxStdoutBytes) {
        overflow = true;
        output.destroy();
        return;
      }
      stdout.push(Buffer.from(payload));
    } else {
      stderr = Buffer.concat([stderr, payload]);
      if (stderr.length > STDERR_KEEP) stderr = stderr.subarray(stderr.length - STDERR_KEEP);
    }
  });
  await new Promise<void>((resolve, reject) => {
    output.on('data', (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch (error) {
        output.destroy();
        reject(error);
      }
    });
    output.once('end', resolve);
    output.once('close', resolve);
    output.once('error', (error) => (overflow ? resolve() : reject(error)));
  });
  if (overflow) {
    throw new IoError(
      `${options.what}: the output exceeded ${options.maxStdoutBytes} bytes; narrow the request`,
    );
  }
  let state = await inspectExec(client, execId);
  for (let attempt = 0; state.running && attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    state = await inspectExec(client, execId);
  }
  if (deathLikeStatus(state.exitCode) && (await containerStopped(client, containerId))) {
    throw new ContainerGoneError(containerId, `it stopped during ${options.what}`);
  }
  // Still running after the stream closed: report it as killed rather than guess a status.
  return { exitCode: state.exitCode ?? 137, stdout: Buffer.concat(stdout), stderr: stderr.toString('utf8') };
}
