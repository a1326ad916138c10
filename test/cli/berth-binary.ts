/**
 * Running the BUILT `berth` binary (dist/cli/main.js) as a separate process; `npm test` builds
 * before vitest.
 */
import { spawn } from 'node:child_process';

export const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

export interface BerthRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/** Run `berth ARGS...` to completion (stdin: `input`, or closed). */
export function berth(
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<BerthRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started });
    });
    // berth may exit before reading its input (a usage error): EPIPE there is not a test failure.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
