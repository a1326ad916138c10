/**
 * Work a handle has running that `destroy` must end: an exec while it runs, a stream or a terminal
 * until it closes. Each is kept in the handle's live set as the function that ends it. Shared by
 * the Docker, Kubernetes and remote contexts.
 * @module
 */
import type { ExecStream, Terminal } from '../../contract/types.js';

/** The handle's live set: one function per running piece of work that ends it. */
export type LiveSet = Set<() => Promise<void>>;

/** What a backend's opener returns: the stream or terminal plus the `terminate` destroy calls. */
interface Terminable {
  terminate(): Promise<void>;
}

/** `track` for an exec: keep `end` in `live` until the exec returns (the result forgets it). */
export function trackIn(live: LiveSet): (end: () => Promise<void>) => () => void {
  return (end) => {
    live.add(end);
    return () => live.delete(end);
  };
}

/**
 * Open a stream or terminal and keep it in `live` until it closes. `open` gets the `onClosed` to
 * give the backend's opener (called once the work ended, possibly before `open` resolved).
 */
export async function openLive<T extends Terminable>(
  live: LiveSet,
  open: (onClosed: () => void) => Promise<T>,
): Promise<T> {
  let end: (() => Promise<void>) | undefined;
  const opened = await open(() => {
    if (end) live.delete(end);
  });
  end = opened.terminate;
  live.add(end);
  return opened;
}

/** The contract's view of an opened stream (without the backend's `terminate`). */
export function streamView(stream: ExecStream): ExecStream {
  return {
    stdin: stream.stdin,
    stdout: stream.stdout,
    stderr: stream.stderr,
    exited: stream.exited,
    kill: stream.kill,
  };
}

/**
 * The contract's view of an opened terminal (without the backend's `terminate`); `resize` checks
 * its sizes with `size` first.
 */
export function terminalView(terminal: Terminal, size: (value: unknown, field: string) => number): Terminal {
  return {
    pid: terminal.pid,
    onData: terminal.onData,
    write: terminal.write,
    resize: (cols, rows) => terminal.resize(size(cols, 'cols'), size(rows, 'rows')),
    exited: terminal.exited,
    kill: terminal.kill,
  };
}
