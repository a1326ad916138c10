/**
 * Every budget of a kernel call in one place: each limit has a sane default, can be raised or
 * lowered at construction, and when reached ends the call with a message that names the limit and
 * says how to raise it. The host never runs out of memory or stack because of a script.
 * @module
 */
import { unknownOption } from '../contract/validate-options.js';
import { InvalidArgumentError } from '../errors/index.js';
import { LimitControl } from './runtime/control.js';

export interface KernelLimits {
  /** Nesting of function calls, `source` and `eval` (bash has none; a runaway recursion ends here). */
  readonly maxCallDepth: number;
  /** Nesting of subshells and command substitutions. */
  readonly maxSubshellDepth: number;
  /** Simple commands executed by one call. */
  readonly maxCommands: number;
  /** Words one brace expansion may produce. */
  readonly maxBraceExpansion: number;
  /** Bytes of one string: a variable's value, an expansion, a command substitution's output. */
  readonly maxStringBytes: number;
  /** Bytes of one heredoc body. */
  readonly maxHeredocBytes: number;
  /** Bytes held in variables (values and array elements) by one call's shells. */
  readonly maxMemoryBytes: number;
  /** Shells alive at once: subshells, pipeline stages, background jobs. */
  readonly maxProcesses: number;
  /** Elements of one array. */
  readonly maxArrayElements: number;
}

export const DEFAULT_LIMITS: KernelLimits = Object.freeze({
  maxCallDepth: 1000,
  maxSubshellDepth: 256,
  maxCommands: 10_000_000,
  maxBraceExpansion: 1_000_000,
  maxStringBytes: 64 * 1024 * 1024,
  maxHeredocBytes: 16 * 1024 * 1024,
  maxMemoryBytes: 512 * 1024 * 1024,
  maxProcesses: 1024,
  maxArrayElements: 4_000_000,
});

const DESCRIPTIONS: Readonly<Record<keyof KernelLimits, string>> = {
  maxCallDepth: 'function call depth',
  maxSubshellDepth: 'subshell depth',
  maxCommands: 'commands executed',
  maxBraceExpansion: 'words from one brace expansion',
  maxStringBytes: 'bytes in one string',
  maxHeredocBytes: 'bytes in one heredoc',
  maxMemoryBytes: 'bytes held in variables',
  maxProcesses: 'subshells and jobs alive at once',
  maxArrayElements: 'elements in one array',
};

/** Merge user overrides over the defaults, validating each. */
export function resolveLimits(overrides: Partial<KernelLimits> | undefined): KernelLimits {
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!(key in DEFAULT_LIMITS))
      throw unknownOption('limits', key, Object.keys(DEFAULT_LIMITS), "the kernel's limits");
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || !Number.isInteger(value)) {
      throw new InvalidArgumentError(`limits.${key}`, `must be a positive integer, got ${String(value)}`);
    }
    out[key] = value;
  }
  return out as unknown as KernelLimits;
}

/** The error a reached limit raises (it ends the call). */
export function limitReached(limits: KernelLimits, key: keyof KernelLimits, detail?: string): LimitControl {
  const what = DESCRIPTIONS[key];
  return new LimitControl(
    key,
    `berth: limit reached: ${detail ?? `more than ${limits[key]} ${what}`} (limits.${key} = ${limits[key]}); raise it with createKernel({ limits: { ${key}: N } })`,
  );
}

/** What one call has used so far; shared by every shell the call forks. */
export class Budget {
  commands = 0;
  memoryBytes = 0;
  processes = 0;

  constructor(readonly limits: KernelLimits) {}

  /** One more simple command. */
  command(): void {
    this.commands += 1;
    if (this.commands > this.limits.maxCommands) throw limitReached(this.limits, 'maxCommands');
  }

  /** A string about to be made, `bytes` long (checked before allocating it). */
  string(bytes: number): void {
    if (bytes > this.limits.maxStringBytes) {
      throw limitReached(this.limits, 'maxStringBytes', `a string of ${bytes} bytes`);
    }
  }

  /** Variables grew (or shrank, negative) by `bytes`. */
  memory(bytes: number): void {
    this.memoryBytes += bytes;
    if (this.memoryBytes < 0) this.memoryBytes = 0;
    if (bytes > 0 && this.memoryBytes > this.limits.maxMemoryBytes) {
      this.memoryBytes -= bytes;
      throw limitReached(this.limits, 'maxMemoryBytes');
    }
  }

  /** A shell (subshell, stage, job) starts; the returned function ends it. */
  process(): () => void {
    this.processes += 1;
    if (this.processes > this.limits.maxProcesses) {
      this.processes -= 1;
      throw limitReached(this.limits, 'maxProcesses');
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.processes -= 1;
    };
  }
}
