/**
 * `openTerminal`: an exec with a TTY on a hijacked connection. The TTY stream is raw (no frames);
 * the engine resizes it on request. For people: echo, line editing and job control are the TTY's.
 * @module
 */
import type { Terminal } from '../../contract/types.js';
import { newExecTag, tagEnv } from '../shared/tagged-termination.js';
import type { EngineClient } from './engine-client.js';
import { createExec, inspectExec, resizeExec, startExecHijacked } from './engine-exec.js';
import { endIfOrphaned, hijackedTeardown } from './hijacked-teardown.js';
import { finalExitCode } from './run-exec.js';

/** What opening a terminal needs. */
export interface TerminalSpec {
  readonly client: EngineClient;
  readonly containerId: string;
  readonly argv: readonly string[];
  readonly env: readonly string[];
  readonly workingDir: string;
  readonly cols: number;
  readonly rows: number;
  readonly graceMs: number;
  readonly onClosed: () => void;
}

/** Open the terminal; resolves once the shell started and the window has its size. */
export async function openContainerTerminal(
  spec: TerminalSpec,
): Promise<Terminal & { terminate(): Promise<void> }> {
  const tag = newExecTag();
  const execId = await createExec(spec.client, spec.containerId, {
    argv: spec.argv,
    env: [...spec.env, tagEnv(tag)],
    workingDir: spec.workingDir,
    tty: true,
    stdin: true,
  });
  const { socket, head } = await startExecHijacked(spec.client, execId, true);
  const listeners = new Set<(chunk: Uint8Array) => void>();
  // Output that arrives before anyone listens is kept (bounded) and replayed to the first listener.
  let early: Buffer[] = [];
  let earlyBytes = 0;
  const deliver = (chunk: Buffer) => {
    if (listeners.size === 0) {
      if (earlyBytes < 1024 * 1024) {
        early.push(chunk);
        earlyBytes += chunk.length;
      }
      return;
    }
    for (const listener of listeners) {
      try {
        listener(new Uint8Array(chunk));
      } catch {
        // A listener's bug must not break the terminal.
      }
    }
  };
  if (head.length > 0) deliver(head);
  socket.on('data', deliver);
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await resizeExec(spec.client, execId, spec.cols, spec.rows).catch(() => undefined);
  const state = await inspectExec(spec.client, execId).catch(() => ({ pid: 0 }));
  const exited = closed.then(async () => {
    spec.onClosed();
    await endIfOrphaned(spec.client, execId, terminate);
    return finalExitCode(spec.client, spec.containerId, execId).catch(() => null);
  });
  const terminate = hijackedTeardown({ ...spec, tag, socket, closed });
  return {
    pid: state.pid,
    onData(listener) {
      listeners.add(listener);
      if (early.length > 0) {
        const pending = early;
        early = [];
        earlyBytes = 0;
        for (const chunk of pending) deliver(chunk);
      }
      return () => listeners.delete(listener);
    },
    write(data) {
      if (!socket.destroyed) socket.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    },
    resize(cols, rows) {
      resizeExec(spec.client, execId, cols, rows).catch(() => undefined);
    },
    exited,
    async kill() {
      await terminate();
      await exited;
    },
    terminate,
  };
}
