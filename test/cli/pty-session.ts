/**
 * Driving the built `berth` binary through a real pseudo-terminal (node-pty), as a person would.
 */
import { createRequire } from 'node:module';
import { MAIN } from './berth-binary.js';

interface Pty {
  onData(listener: (data: string) => void): void;
  onExit(listener: (event: { exitCode: number; signal?: number }) => void): void;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  readonly pid: number;
}
const nodePty = createRequire(import.meta.url)('node-pty') as {
  spawn(file: string, args: string[], options: Record<string, unknown>): Pty;
};

export interface PtySession {
  readonly pid: number;
  output(): string;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Resolve once the output matches `pattern`; reject after `ms` with what was seen. */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  readonly exited: Promise<number>;
  kill(): void;
}

export function berthInPty(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): PtySession {
  return session(process.execPath, [MAIN, ...args], options);
}

/** Run a `/bin/sh -c` script in a pty (to look at the terminal before and after berth). */
export function berthInPtyShell(
  script: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): PtySession {
  return session('/bin/sh', ['-c', script], options);
}

function session(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
): PtySession {
  const pty = nodePty.spawn(file, args, {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, NO_COLOR: undefined, ...options.env },
  });
  let output = '';
  const waiters = new Set<() => void>();
  pty.onData((data) => {
    output += data;
    for (const check of waiters) check();
  });
  const exited = new Promise<number>((resolve) => pty.onExit((event) => resolve(event.exitCode)));
  return {
    pid: pty.pid,
    output: () => output,
    write: (data) => pty.write(data),
    resize: (cols, rows) => pty.resize(cols, rows),
    waitFor(pattern, ms = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far: ${JSON.stringify(output)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    exited,
    kill: () => pty.kill('SIGKILL'),
  };
}
