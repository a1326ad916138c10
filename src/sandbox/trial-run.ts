/**
 * Short trial runs for the preflight: capped in time and in captured output.
 * @module
 */
import { spawn } from 'node:child_process';
import type { SandboxCheck, SandboxReport } from './types.js';

/** How a trial ended. */
export interface TrialRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error: string | undefined;
}

export function describeFailure(trial: TrialRun): string {
  if (trial.error !== undefined) return trial.error;
  const line = trial.stderr.trim().split('\n', 1)[0];
  return line || `exit ${trial.code ?? trial.signal}`;
}

/** Run a short trial, capped in time and output (a few KiB is all a trial prints). */
export function runTrial(file: string, args: readonly string[], timeoutMs: number): Promise<TrialRun> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < 4096) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 4096) stderr += text;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ code: null, signal: null, stdout, stderr, error: `${file}: ${error.code ?? error.message}` });
    });
    child.on('close', (code, signal) => {
      resolve({
        code,
        signal,
        stdout,
        stderr,
        error: signal === 'SIGTERM' ? `no answer within ${timeoutMs} ms` : undefined,
      });
    });
  });
}

/** A report for a backend that cannot confine anything, with the checks made so far. */
export function unavailableReport(
  checks: SandboxCheck[],
  reason: string,
  fix: string,
  backend: SandboxReport['backend'],
): SandboxReport {
  return {
    platform: process.platform,
    backend,
    available: false,
    networkIsolation: false,
    reason,
    fix,
    checks,
  };
}
