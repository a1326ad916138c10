/**
 * The Pike VM: a breadth-first simulation of the NFA that tracks captures, linear in the text
 * (O(text × program)). Two policies: `longest` gives POSIX's leftmost-longest overall match (GNU
 * grep, sed, awk); otherwise leftmost-first, the match a backtracking engine finds (Perl).
 * @module
 */
import { atEndOrFinalNewline, contextAt, contextBefore } from './context.js';
import {
  assertHolds,
  OP_ASSERT,
  OP_JMP,
  OP_MARK,
  OP_MATCH,
  OP_PROGRESS,
  OP_SAVE,
  OP_SET,
  OP_SPLIT,
  type Program,
} from './program.js';

interface ThreadList {
  pc: Int32Array;
  caps: Int32Array[];
  length: number;
}

/** A reusable matcher for one program (not re-entrant). */
export class PikeVM {
  private clist: ThreadList;
  private nlist: ThreadList;
  private readonly mark: Int32Array;
  private generation = 0;
  private stackPc: Int32Array;
  private stackCaps: Int32Array[] = [];
  /** No groups and no `\K`: threads need only their start. */
  private readonly spanOnly: boolean;

  constructor(
    private readonly prog: Program,
    private readonly longest: boolean,
    private readonly multiline: boolean,
  ) {
    const n = prog.length;
    this.clist = { pc: new Int32Array(n), caps: new Array<Int32Array>(n), length: 0 };
    this.nlist = { pc: new Int32Array(n), caps: new Array<Int32Array>(n), length: 0 };
    this.mark = new Int32Array(n);
    this.stackPc = new Int32Array(Math.max(16, n));
    let keep = false;
    for (let pc = 1; pc < n; pc += 1) if (prog.op[pc] === OP_SAVE && prog.a[pc] === 0) keep = true;
    this.spanOnly = prog.slots === 2 && !keep;
  }

  /** The leftmost match at or after `from`: capture slots (start, end pairs; -1 unset), or null. */
  search(text: string, from: number): Int32Array | null {
    if (this.spanOnly) return this.searchSpan(text, from);
    const prog = this.prog;
    const len = text.length;
    const nc = prog.classCount;
    const classOf = prog.classOf;
    const setHas = prog.setHas;
    const first = prog.firstClasses;
    let best: Int32Array | null = null;
    this.clist.length = 0;
    for (let pos = from; pos <= len; pos += 1) {
      if (best === null && (!prog.anchoredStart || pos === 0)) {
        if (this.clist.length === 0 && first !== undefined) {
          while (pos < len && first[classOf[text.charCodeAt(pos)] as number] !== 1) pos += 1;
          if (pos >= len) break;
        }
        this.generation += 1;
        // Seeds go after the threads already running: an earlier start has priority.
        this.markList(this.clist);
        const seed = new Int32Array(prog.slots).fill(-1);
        this.add(this.clist, 0, seed, text, pos);
      }
      if (this.clist.length === 0) {
        if (best !== null || prog.anchoredStart) break;
        continue; // nothing running: the next position may start a match
      }
      this.generation += 1;
      const nlist = this.nlist;
      nlist.length = 0;
      const cls = pos < len ? (classOf[text.charCodeAt(pos)] as number) : -1;
      const clist = this.clist;
      for (let i = 0; i < clist.length; i += 1) {
        const pc = clist.pc[i] as number;
        const caps = clist.caps[i] as Int32Array;
        if (best !== null && this.longest && (caps[0] as number) > (best[0] as number)) continue;
        const op = prog.op[pc];
        if (op === OP_MATCH) {
          if (!this.longest) {
            best = caps;
            break;
          }
          if (
            best === null ||
            (caps[0] as number) < (best[0] as number) ||
            ((caps[0] as number) === (best[0] as number) && (caps[1] as number) > (best[1] as number))
          )
            best = caps;
          continue;
        }
        if (op === OP_SET && cls >= 0 && setHas[(prog.a[pc] as number) * nc + cls] === 1)
          this.add(nlist, pc + 1, caps, text, pos + 1);
      }
      this.nlist = clist;
      this.clist = nlist;
    }
    return best;
  }

  /**
   * The same search for a pattern without groups: a thread is a position and the start of its
   * match, so nothing is allocated per step.
   */
  private searchSpan(text: string, from: number): Int32Array | null {
    const prog = this.prog;
    const len = text.length;
    const nc = prog.classCount;
    const classOf = prog.classOf;
    const setHas = prog.setHas;
    const first = prog.firstClasses;
    const n = prog.length;
    let cur = { pc: new Int32Array(n), start: new Int32Array(n), length: 0 };
    let nxt = { pc: new Int32Array(n), start: new Int32Array(n), length: 0 };
    let bestStart = -1;
    let bestEnd = -1;
    for (let pos = from; pos <= len; pos += 1) {
      if (bestStart < 0 && (!prog.anchoredStart || pos === 0)) {
        if (cur.length === 0 && first !== undefined) {
          while (pos < len && first[classOf[text.charCodeAt(pos)] as number] !== 1) pos += 1;
          if (pos >= len) break;
        }
        this.generation += 1;
        for (let i = 0; i < cur.length; i += 1) this.mark[cur.pc[i] as number] = this.generation;
        this.addSpan(cur, 0, pos, text, pos);
      }
      if (cur.length === 0) {
        if (bestStart >= 0 || prog.anchoredStart) break;
        continue;
      }
      this.generation += 1;
      nxt.length = 0;
      const cls = pos < len ? (classOf[text.charCodeAt(pos)] as number) : -1;
      for (let i = 0; i < cur.length; i += 1) {
        const pc = cur.pc[i] as number;
        const start = cur.start[i] as number;
        if (bestStart >= 0 && this.longest && start > bestStart) continue;
        const op = prog.op[pc];
        if (op === OP_MATCH) {
          if (!this.longest) {
            bestStart = start;
            bestEnd = pos;
            break;
          }
          if (bestStart < 0 || start < bestStart || (start === bestStart && pos > bestEnd)) {
            bestStart = start;
            bestEnd = pos;
          }
          continue;
        }
        if (op === OP_SET && cls >= 0 && setHas[(prog.a[pc] as number) * nc + cls] === 1)
          this.addSpan(nxt, pc + 1, start, text, pos + 1);
      }
      const t = cur;
      cur = nxt;
      nxt = t;
    }
    if (bestStart < 0) return null;
    const out = new Int32Array(2);
    out[0] = bestStart;
    out[1] = bestEnd;
    return out;
  }

  private addSpan(
    list: { pc: Int32Array; start: Int32Array; length: number },
    pc0: number,
    start: number,
    text: string,
    pos: number,
  ): void {
    const prog = this.prog;
    const mark = this.mark;
    const gen = this.generation;
    let prev = -1;
    let next = -1;
    let sp = 0;
    this.stackPc[sp++] = pc0;
    while (sp > 0) {
      let pc = this.stackPc[--sp] as number;
      for (;;) {
        if (mark[pc] === gen) break;
        mark[pc] = gen;
        const op = prog.op[pc];
        if (op === OP_JMP) pc = prog.a[pc] as number;
        else if (op === OP_SPLIT) {
          if (sp >= this.stackPc.length) {
            const grown = new Int32Array(this.stackPc.length * 2);
            grown.set(this.stackPc);
            this.stackPc = grown;
          }
          this.stackPc[sp++] = prog.b[pc] as number;
          pc = prog.a[pc] as number;
        } else if (op === OP_SAVE || op === OP_MARK || op === OP_PROGRESS) pc += 1;
        else if (op === OP_ASSERT) {
          const code = prog.a[pc] as number;
          let ok: boolean;
          if (code === 4) ok = atEndOrFinalNewline(text, pos);
          else {
            if (prev < 0) {
              prev = contextBefore(text, pos);
              next = contextAt(text, pos);
            }
            ok = assertHolds(code, prev, next, this.multiline);
          }
          if (!ok) break;
          pc += 1;
        } else {
          const k = list.length;
          list.pc[k] = pc;
          list.start[k] = start;
          list.length = k + 1;
          break;
        }
      }
    }
  }

  /** Mark what a list already holds, so a seed does not duplicate a running thread. */
  private markList(list: ThreadList): void {
    for (let i = 0; i < list.length; i += 1) this.mark[list.pc[i] as number] = this.generation;
  }

  /** Follow empty transitions from `pc0` at `pos`, appending the threads that wait on a character. */
  private add(list: ThreadList, pc0: number, caps0: Int32Array, text: string, pos: number): void {
    const prog = this.prog;
    const mark = this.mark;
    const gen = this.generation;
    let prev = -1;
    let next = -1;
    let sp = 0;
    this.push(sp++, pc0, caps0);
    while (sp > 0) {
      sp -= 1;
      let pc = this.stackPc[sp] as number;
      let caps = this.stackCaps[sp] as Int32Array;
      for (;;) {
        if (mark[pc] === gen) break;
        mark[pc] = gen;
        const op = prog.op[pc];
        if (op === OP_JMP) {
          pc = prog.a[pc] as number;
        } else if (op === OP_SPLIT) {
          this.push(sp++, prog.b[pc] as number, caps);
          pc = prog.a[pc] as number;
        } else if (op === OP_SAVE) {
          caps = caps.slice();
          caps[prog.a[pc] as number] = pos;
          pc += 1;
        } else if (op === OP_ASSERT) {
          const code = prog.a[pc] as number;
          let ok: boolean;
          if (code === 4) ok = atEndOrFinalNewline(text, pos);
          else {
            if (prev < 0) {
              prev = contextBefore(text, pos);
              next = contextAt(text, pos);
            }
            ok = assertHolds(code, prev, next, this.multiline);
          }
          if (!ok) break;
          pc += 1;
        } else if (op === OP_MARK || op === OP_PROGRESS) {
          pc += 1;
        } else {
          const n = list.length;
          list.pc[n] = pc;
          list.caps[n] = caps;
          list.length = n + 1;
          break;
        }
      }
    }
  }

  private push(at: number, pc: number, caps: Int32Array): void {
    if (at >= this.stackPc.length) {
      const grown = new Int32Array(this.stackPc.length * 2);
      grown.set(this.stackPc);
      this.stackPc = grown;
    }
    this.stackPc[at] = pc;
    this.stackCaps[at] = caps;
  }
}
