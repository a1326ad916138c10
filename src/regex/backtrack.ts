/**
 * The bounded backtracker, for what no automaton can do: back-references, Perl lookaround and
 * atomic groups. Its work is capped: past `budget` steps the match is abandoned with a
 * {@link RegexBudgetError}, so no pattern can hold the host. `longest` explores every way to
 * match at the leftmost start and keeps the longest (POSIX with back-references, as GNU does);
 * otherwise the first found wins (Perl).
 * @module
 */
import { caseVariants } from './charset.js';
import { atEndOrFinalNewline, contextAt, contextBefore } from './context.js';
import { RegexBudgetError } from './errors.js';
import {
  assertHolds,
  OP_ASSERT,
  OP_ATOMIC,
  OP_BACKREF,
  OP_JMP,
  OP_LOOK,
  OP_MARK,
  OP_PROGRESS,
  OP_SAVE,
  OP_SET,
  OP_SPLIT,
  type Program,
} from './program.js';

export const DEFAULT_STEP_BUDGET = 5_000_000;

/** Stack frames: a choice point (pc, pos) or an undo of one register (slot, old value). */
const FRAME_CHOICE = 0;
const FRAME_UNDO = 1;

export class Backtracker {
  private steps = 0;
  private regs: Int32Array;
  private kind: number[] = [];
  private x: number[] = [];
  private y: number[] = [];

  constructor(
    private readonly prog: Program,
    private readonly longest: boolean,
    private readonly multiline: boolean,
    private readonly ignoreCase: boolean,
    private readonly budget: number,
  ) {
    this.regs = new Int32Array(prog.slots + prog.registers);
  }

  /** The leftmost match at or after `from`, as capture slots, or null. */
  search(text: string, from: number): Int32Array | null {
    this.steps = 0;
    const prog = this.prog;
    const last = prog.anchoredStart ? Math.min(from, 0) : text.length;
    for (let start = from; start <= last; start += 1) {
      if (prog.anchoredStart && start !== 0) break;
      const m = this.run(text, 0, start, this.longest, -1);
      if (m !== null) return m;
    }
    return null;
  }

  /**
   * Match from `entry` at `start`; with `endAt` ≥ 0 only a match ending exactly there counts
   * (lookbehind). Registers are shared with the caller (captures in lookaround persist).
   */
  private run(
    text: string,
    entry: number,
    start: number,
    longest: boolean,
    endAt: number,
  ): Int32Array | null {
    const prog = this.prog;
    const regs = this.regs;
    const nc = prog.classCount;
    const len = text.length;
    const base = this.kind.length;
    let best: Int32Array | null = null;
    if (entry === 0) regs.fill(-1);
    this.pushChoice(entry, start);
    while (this.kind.length > base) {
      const k = this.kind.pop() as number;
      const fx = this.x.pop() as number;
      const fy = this.y.pop() as number;
      if (k === FRAME_UNDO) {
        regs[fx] = fy;
        continue;
      }
      let pc = fx;
      let pos = fy;
      for (;;) {
        this.steps += 1;
        if (this.steps > this.budget) {
          this.kind.length = base;
          this.x.length = base;
          this.y.length = base;
          throw new RegexBudgetError(this.budget);
        }
        const op = prog.op[pc];
        if (op === OP_SET) {
          if (
            pos < len &&
            prog.setHas[(prog.a[pc] as number) * nc + (prog.classOf[text.charCodeAt(pos)] as number)] === 1
          ) {
            pc += 1;
            pos += 1;
            continue;
          }
          break;
        }
        if (op === OP_SPLIT) {
          this.pushChoice(prog.b[pc] as number, pos);
          pc = prog.a[pc] as number;
          continue;
        }
        if (op === OP_JMP) {
          pc = prog.a[pc] as number;
          continue;
        }
        if (op === OP_SAVE || op === OP_MARK) {
          const slot = op === OP_SAVE ? (prog.a[pc] as number) : prog.slots + (prog.a[pc] as number);
          this.pushUndo(slot, regs[slot] as number);
          regs[slot] = pos;
          pc += 1;
          continue;
        }
        if (op === OP_PROGRESS) {
          if (regs[prog.slots + (prog.a[pc] as number)] === pos) break;
          pc += 1;
          continue;
        }
        if (op === OP_ASSERT) {
          const code = prog.a[pc] as number;
          const ok =
            code === 4
              ? atEndOrFinalNewline(text, pos)
              : assertHolds(code, contextBefore(text, pos), contextAt(text, pos), this.multiline);
          if (!ok) break;
          pc += 1;
          continue;
        }
        if (op === OP_BACKREF) {
          const g = prog.a[pc] as number;
          const s = regs[2 * g] as number;
          const e = regs[2 * g + 1] as number;
          if (s < 0 || e < 0) break;
          const n = e - s;
          if (pos + n > len || !this.sameText(text, s, pos, n)) break;
          pos += n;
          pc += 1;
          continue;
        }
        if (op === OP_LOOK) {
          const flags = prog.b[pc] as number;
          const sub = prog.subEntries[prog.a[pc] as number] as number;
          const behind = (flags & 1) !== 0;
          const negate = (flags & 2) !== 0;
          const depth = this.kind.length;
          let found = false;
          if (behind) {
            for (let s = pos; s >= 0 && !found; s -= 1) found = this.run(text, sub, s, false, pos) !== null;
          } else found = this.run(text, sub, pos, false, -1) !== null;
          if (negate || !found) this.unwind(depth);
          if (found === negate) break;
          pc += 1;
          continue;
        }
        if (op === OP_ATOMIC) {
          const sub = prog.subEntries[prog.a[pc] as number] as number;
          const m = this.run(text, sub, pos, false, -1);
          if (m === null) break;
          pos = m[0] as number;
          pc += 1;
          continue;
        }
        // OP_MATCH
        if (endAt >= 0 && pos !== endAt) break;
        if (entry !== 0) {
          // A sub-match (lookaround, atomic): report where it ended; its captures stay set.
          const out = new Int32Array(1);
          out[0] = pos;
          this.dropChoices(base);
          return out;
        }
        if (!longest) {
          const out = regs.slice(0, prog.slots);
          this.unwind(base);
          return out;
        }
        if (best === null || pos > (best[1] as number)) {
          best = regs.slice(0, prog.slots);
          best[1] = pos;
        }
        break;
      }
    }
    return best;
  }

  private sameText(text: string, a: number, b: number, n: number): boolean {
    for (let i = 0; i < n; i += 1) {
      const x = text.charCodeAt(a + i);
      const y = text.charCodeAt(b + i);
      if (x === y) continue;
      if (!this.ignoreCase) return false;
      if (!caseVariants(x).includes(y)) return false;
    }
    return true;
  }

  private pushChoice(pc: number, pos: number): void {
    this.kind.push(FRAME_CHOICE);
    this.x.push(pc);
    this.y.push(pos);
  }

  private pushUndo(slot: number, old: number): void {
    this.kind.push(FRAME_UNDO);
    this.x.push(slot);
    this.y.push(old);
  }

  /** Pop frames down to `depth`, applying undo records (restores the registers). */
  private unwind(depth: number): void {
    while (this.kind.length > depth) {
      const k = this.kind.pop() as number;
      const fx = this.x.pop() as number;
      const fy = this.y.pop() as number;
      if (k === FRAME_UNDO) this.regs[fx] = fy;
    }
  }

  /**
   * Drop the choice points above `depth` but keep the undo records (moved down), so captures a
   * committed sub-match set are undone when the caller backtracks past it.
   */
  private dropChoices(depth: number): void {
    const keepK: number[] = [];
    const keepX: number[] = [];
    const keepY: number[] = [];
    for (let i = depth; i < this.kind.length; i += 1) {
      if (this.kind[i] === FRAME_UNDO) {
        keepK.push(FRAME_UNDO);
        keepX.push(this.x[i] as number);
        keepY.push(this.y[i] as number);
      }
    }
    this.kind.length = depth;
    this.x.length = depth;
    this.y.length = depth;
    this.kind.push(...keepK);
    this.x.push(...keepX);
    this.y.push(...keepY);
  }
}
