/**
 * The preflight: what works, what does not, why, and how to fix it. Runs real sandboxes rather than
 * trusting settings alone, and reads the settings to explain a failure.
 * @module
 */
import { knownOptions, pathOption } from '../contract/validate-options.js';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { PROBE_OPTION_KEYS } from './option-keys.js';
import { probeDarwin } from './probe-darwin.js';
import { probeLinux } from './probe-linux.js';
import type { SandboxReport } from './types.js';

/** Options for {@link probeSandbox}. */
export interface ProbeSandboxOptions {
  /** Absolute path of bubblewrap to check; default `bwrap` on `PATH`. */
  readonly bwrapPath?: string | undefined;
  /** Bound on each trial run (default 10000). */
  readonly timeoutMs?: number | undefined;
}

/** Check whether commands can be sandboxed on this host, and explain every failure. */
export async function probeSandbox(options: ProbeSandboxOptions = {}): Promise<SandboxReport> {
  knownOptions(options, 'options', PROBE_OPTION_KEYS, 'probeSandbox');
  pathOption(options.bwrapPath, 'bwrapPath', true);
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidArgumentError(
      'timeoutMs',
      `expected a positive integer number of milliseconds, got ${describeValue(timeoutMs)}`,
    );
  }
  if (process.platform === 'linux') return probeLinux(options.bwrapPath, timeoutMs);
  if (process.platform === 'darwin') return probeDarwin(timeoutMs);
  const fix = 'use the docker context for isolation on this platform';
  const reason = `no OS sandbox backend for the platform "${process.platform}"`;
  return {
    platform: process.platform,
    backend: 'none',
    available: false,
    networkIsolation: false,
    reason,
    fix,
    checks: [{ id: 'platform', title: 'Platform', status: 'fail', detail: reason, fix }],
  };
}
