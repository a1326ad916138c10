/**
 * `openTerminal` in a remote sandbox: the provider's PTY (its own interactive login shell), tagged
 * so `kill` ends the session's whole tree, jobs included. A `shell` option, or names to remove
 * from the environment, are typed into that shell as one `exec` line (the SDKs choose the PTY's
 * program themselves).
 * @module
 */
import type { Terminal } from '../../contract/types.js';
import { readControlLines } from './control-lines.js';
import { newNonce, shLine } from './scripts.js';
import type { RemoteSandbox } from './transport.js';
import { newExecTag, terminateTagged } from './tree-termination.js';

export interface RemoteTerminalSpec {
  readonly sandbox: RemoteSandbox;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** A line typed first (`unset …; exec <shell>`), or ''. */
  readonly firstLine: string;
  readonly cols: number;
  readonly rows: number;
  readonly graceMs: number;
  readonly classify: (error: unknown) => Error;
  readonly onClosed: () => void;
}

/** Output kept for the first listener (a prompt printed before anyone listens is not lost). */
const EARLY_BYTES = 1024 * 1024;

export async function openRemoteTerminal(
  spec: RemoteTerminalSpec,
): Promise<Terminal & { terminate(): Promise<void> }> {
  const tag = newExecTag();
  const listeners = new Set<(chunk: Uint8Array) => void>();
  let early: Uint8Array[] = [];
  let earlyBytes = 0;
  const deliver = (chunk: Uint8Array) => {
    if (listeners.size === 0) {
      if (earlyBytes < EARLY_BYTES) {
        early.push(chunk);
        earlyBytes += chunk.length;
      }
      return;
    }
    for (const listener of listeners) {
      try {
        listener(chunk);
      } catch {
        // A listener's bug must not break the terminal.
      }
    }
  };
  const pty = await spec.sandbox
    .openPty({
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      env: { TERM: 'xterm-256color', ...spec.env, BERTH_EXEC: tag },
      onData: (bytes) => deliver(new Uint8Array(bytes)),
    })
    .catch((error: unknown) => {
      throw spec.classify(error);
    });
  if (spec.firstLine !== '') await pty.write(Buffer.from(`${spec.firstLine}\r`, 'utf8'));
  // A provider that does not tell the PTY's pid (Daytona): the oldest process carrying the tag.
  const pid = pty.pid > 0 ? pty.pid : await taggedRoot(spec.sandbox, tag);
  const exited = pty.exited.then((code) => {
    spec.onClosed();
    return code;
  });
  // One input call at a time: the SDKs send each as its own request, which could overtake another.
  let writes: Promise<unknown> = Promise.resolve();
  let ending: Promise<void> | undefined;
  const terminate = () => {
    ending ??= (async () => {
      await terminateTagged(spec.sandbox, tag, spec.graceMs);
      await pty.kill().catch(() => undefined);
    })();
    return ending;
  };
  return {
    pid,
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
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      writes = writes.then(() => pty.write(bytes)).catch(() => undefined);
    },
    resize(cols, rows) {
      void pty.resize(cols, rows).catch(() => undefined);
    },
    exited,
    async kill() {
      await terminate();
      await exited;
    },
    terminate,
  };
}

/** The lowest pid whose environment carries `tag` (the session's shell), or 0. */
async function taggedRoot(sandbox: RemoteSandbox, tag: string): Promise<number> {
  const nonce = newNonce();
  const script = `for i in 1 2 3 4 5 6 7 8 9 10; do
  p=$(grep -las -- "BERTH_EXEC=$1" /proc/[0-9]*/environ 2>/dev/null | sed 's,^/proc/,,;s,/environ$,,' | sort -n | head -n 1)
  [ -n "$p" ] && break; sleep 0.1
done
printf '%s pid %s\\n' "$2" "\${p:-0}"`;
  const result = await sandbox
    .run({ script: shLine(script, 'berth-pid', [tag, nonce]), timeoutMs: 30_000 })
    .catch(() => undefined);
  const line = result && readControlLines(result.stdout, nonce).find((candidate) => candidate.kind === 'pid');
  return line ? Number(line.argument) || 0 : 0;
}
