/**
 * Test helper: spawn a confined argv the way berth's process layer does (own process group), collect
 * its output, and find processes on the host by a marker in their command line.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { confineCommand } from '../../src/sandbox/index.js';
import type { SandboxPolicy } from '../../src/sandbox/types.js';

export interface RunResult {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Confine `argv` under `policy` and run it to completion; throws when confinement was refused. */
export function runConfined(
  policy: SandboxPolicy,
  argv: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  const confined = confineCommand(policy, argv, { cwd: options.cwd });
  if (!confined.ok) throw new Error(`not confined: ${confined.reason}; ${confined.fix}`);
  return runArgv(confined.argv, options).finally(confined.release);
}

/** Run an argv in its own process group and collect its output. */
export function runArgv(
  argv: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export { pidsWithMarker } from '../support/process-markers.js';

/** Host pids of processes whose whole command line is exactly `argv` (e.g. `sleep <marker>`). */
export function pidsRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === wanted) pids.push(Number(entry));
    } catch {
      // Gone between listing and reading.
    }
  }
  return pids;
}

/** Poll `check` every 20 ms until it returns true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}
