/**
 * A holder: a small process that keeps namespaces alive for one handle (a workspace overlay's
 * mount namespace, a sandbox session's PID and network namespaces). It says a ready word on stdout
 * once they are built and then waits on its stdin, a pipe from this process: closing that pipe ends
 * it, and so does the end of this process, SIGKILL included, since the kernel closes the pipe.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** A started holder, or the first line of what it said before it failed. */
export type HolderStart =
  | { readonly ok: true; readonly child: ChildProcess; readonly info: string }
  | { readonly ok: false; readonly why: string };

/**
 * Spawn `argv` and wait for `ready` on its stdout. With `infoFd`, the holder also gets a pipe on
 * that descriptor, and what it wrote there before ready (bubblewrap's `--info-fd`) is returned.
 */
export async function startHolder(
  argv: readonly string[],
  options: { readonly ready: string; readonly infoFd?: number },
): Promise<HolderStart> {
  const [program, ...args] = argv;
  const stdio: ('pipe' | 'ignore')[] = ['pipe', 'pipe', 'pipe'];
  if (options.infoFd !== undefined) {
    while (stdio.length < options.infoFd) stdio.push('ignore');
    stdio.push('pipe');
  }
  const child = spawn(program as string, args, { stdio });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  let info = '';
  const infoStream = options.infoFd === undefined ? null : child.stdio[options.infoFd];
  const ready = await new Promise<boolean>((resolve) => {
    // Ready once the word came and the info descriptor (when asked for) was written and closed.
    let waiting = infoStream ? 2 : 1;
    const arrived = () => {
      waiting -= 1;
      if (waiting === 0) resolve(true);
    };
    infoStream?.on('data', (chunk: Buffer) => {
      if (info.length < 4096) info += chunk.toString();
    });
    infoStream?.once('end', arrived);
    let stdout = '';
    let said = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!said && stdout.includes(options.ready)) {
        said = true;
        arrived();
      }
    });
    child.once('exit', () => resolve(false));
    child.once('error', (error) => {
      stderr += error.message;
      resolve(false);
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    return { ok: false, why: stderr.trim().split('\n', 1)[0] || 'the holder process exited' };
  }
  child.stdout?.removeAllListeners('data');
  child.stdout?.resume();
  // Nor does the holder keep this process alive.
  child.unref();
  for (const stream of child.stdio) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  return { ok: true, child, info };
}

/** True while the holder runs. */
export function holderRunning(child: ChildProcess | undefined): child is ChildProcess {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

/** Close the holder's stdin and wait for it to exit; SIGKILL it after `killAfterMs`. */
export async function endHolder(child: ChildProcess | undefined, killAfterMs: number): Promise<void> {
  if (!holderRunning(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}
