/**
 * What compiled code calls on besides the runtime's state: the yield point (which also notices
 * cancellation and writes out gathered output), the main input for plain `getline`, the random
 * number generator, function-call bookkeeping, warnings, and the non-local exits (`exit`, and
 * `next`/`nextfile` inside a function) as exceptions.
 * @module
 */
import type { CommandContext } from '../command.js';
import { AwkFatalError } from './errors.js';
import type { AwkIO } from './io.js';
import type { MainInput } from './main-input.js';
import { BsdRandom } from './random.js';
import type { Runtime } from './runtime.js';
import type { SourcePosition } from './source.js';
import type { Value } from './values.js';

/** `exit [status]`. */
export class ExitSignal {
  constructor(readonly status: number | undefined) {}
}

/** `next` or `nextfile` from inside a function. */
export class NextSignal {
  constructor(readonly file: boolean) {}
}

/** The run was cancelled (timeout, abort, kill). */
export class AbortedSignal {}

export class Machine {
  callDepth = 0;
  returnValue: Value;
  readonly random = new BsdRandom();
  /** The seed `srand()` last set (what the next `srand()` returns). */
  seed = 1;
  mainInput: MainInput | undefined;
  /** gawk's "Invalid multibyte data" warning is given once. */
  warnedMultibyte = false;
  /** The rule that ran last (where gawk's messages about the main input point). */
  lastAt: SourcePosition | undefined;
  /** Whether an END rule is running (getline there reads nothing more). */
  inEnd = false;

  constructor(
    readonly rt: Runtime,
    readonly io: AwkIO,
    readonly ctx: CommandContext,
    readonly warn: (at: SourcePosition | undefined, message: string) => void,
  ) {}

  /**
   * The yield point of loops and records: `undefined` while the host's slice lasts; else a
   * promise that gives the host a turn, then ends the run if it was cancelled.
   */
  tick(): Promise<void> | undefined {
    const p = this.ctx.cooperate();
    if (p !== undefined) return this.afterYield(p);
    if (this.ctx.signal.aborted) throw new AbortedSignal();
    return undefined;
  }

  private async afterYield(p: Promise<void>): Promise<void> {
    await p;
    if (this.ctx.signal.aborted) throw new AbortedSignal();
    await this.io.maybeFlush();
  }

  /** Enter a user function (bounded depth). */
  enter(name: string, at: SourcePosition): void {
    this.callDepth += 1;
    if (this.callDepth > this.rt.limits.maxCallDepth) {
      this.callDepth = 0;
      throw new AwkFatalError(
        `function \`${name}' nested deeper than ${this.rt.limits.maxCallDepth} calls (the limit of this shell)`,
        at,
      );
    }
  }

  leave(): void {
    this.callDepth -= 1;
  }
}
