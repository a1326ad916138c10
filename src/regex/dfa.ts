/**
 * A lazy DFA for "is there a match?": states are sets of NFA positions built on first use and
 * cached (flushed past a size limit), so each code unit of text costs one table read. It answers
 * for programs without back-references or lookaround. Assertions are resolved from the context
 * types of the character before and after (the state remembers the previous type). In line mode
 * a newline ends a line and restarts the automaton: `nextMatchingLine` scans a block of many
 * lines in one pass, as GNU grep does.
 * @module
 */
import {
  assertHolds,
  CTX_EDGE,
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

const UNKNOWN = -1;
const ACCEPT = -2;
/** The target state can never lead to a match. */
const DEAD = -3;
const MAX_STATES = 4000;

interface State {
  /** NFA positions waiting on a character (after the last one consumed). */
  readonly kernel: Int32Array;
  /** Context type of the last character consumed (CTX_EDGE at the start). */
  readonly prev: number;
  /** Accepts when the text ends here: -1 unknown, 0 no, 1 yes. */
  acceptAtEnd: number;
  /** No match can start or continue from here (anchored pattern past its start). */
  readonly dead: boolean;
}

export class LazyDFA {
  private states: State[] = [];
  private index = new Map<string, number>();
  private trans: Int32Array = new Int32Array(0);
  private readonly nc: number;
  private readonly onStack: Int32Array;
  private generation = 0;
  /** Offset of the start state in the table. */
  private start: number;

  constructor(
    private readonly prog: Program,
    private readonly multiline: boolean,
  ) {
    this.nc = prog.classCount;
    this.onStack = new Int32Array(prog.length);
    this.start = this.intern(new Int32Array(0), CTX_EDGE) * this.nc;
  }

  /** Whether `text` holds a match anywhere (the whole text is one line; newlines are characters). */
  test(text: string): boolean {
    const classOf = this.prog.classOf;
    const nc = this.nc;
    let s = this.start;
    for (let i = 0; i < text.length; i += 1) {
      const cls = classOf[text.charCodeAt(i)] as number;
      let t = this.trans[s + cls] as number;
      if (t < 0) {
        if (t === UNKNOWN) t = this.step(s / nc, cls);
        if (t === ACCEPT) return true;
        if (t === DEAD) return false;
      }
      s = t;
    }
    return this.acceptsAtEnd(s);
  }

  /**
   * The start of the first line at or after `from` (a line start) that holds a match, or -1.
   * Lines end at `\n`; the text after the last newline counts as a line when non-empty.
   */
  nextMatchingLine(text: string, from: number): number {
    const classOf = this.prog.classOf;
    const nc = this.nc;
    const len = text.length;
    let trans = this.trans;
    let s = this.start;
    let lineStart = from;
    for (let i = from; i < len; i += 1) {
      const u = text.charCodeAt(i);
      if (u === 10) {
        if (this.acceptsAtEnd(s)) return lineStart;
        s = this.start;
        lineStart = i + 1;
        continue;
      }
      let t = trans[s + (classOf[u] as number)] as number;
      if (t < 0) {
        if (t === UNKNOWN) {
          t = this.step(s / nc, classOf[u] as number);
          trans = this.trans;
        }
        if (t === ACCEPT) return lineStart;
        if (t === DEAD) {
          // This line cannot match: go on with the next one.
          const nl = text.indexOf('\n', i);
          if (nl === -1) return -1;
          i = nl;
          s = this.start;
          lineStart = nl + 1;
          continue;
        }
      }
      s = t;
    }
    if (lineStart < len && this.acceptsAtEnd(s)) return lineStart;
    return -1;
  }

  /** `s` is a state's offset in the table (index × classes), as the scan loops keep it. */
  private acceptsAtEnd(s: number): boolean {
    const st = this.states[s / this.nc] as State;
    if (st.acceptAtEnd < 0) st.acceptAtEnd = this.closureHasMatch(st, CTX_EDGE) ? 1 : 0;
    return st.acceptAtEnd === 1;
  }

  private closureHasMatch(st: State, next: number): boolean {
    const out: number[] = [];
    return this.closure(st, next, out);
  }

  /** The transition from state index `s` on class `cls` (computed, cached; an offset or a sentinel). */
  private step(s: number, cls: number): number {
    const prog = this.prog;
    const st = this.states[s] as State;
    const nextType = prog.classType[cls] as number;
    const closed: number[] = [];
    if (this.closure(st, nextType, closed)) {
      this.trans[s * this.nc + cls] = ACCEPT;
      return ACCEPT;
    }
    const kernel: number[] = [];
    for (const pc of closed) {
      if (prog.op[pc] === OP_SET && prog.setHas[(prog.a[pc] as number) * this.nc + cls] === 1)
        kernel.push(pc + 1);
    }
    if (this.states.length >= MAX_STATES) {
      // Flush the cache; keep going from a fresh copy of the target.
      const k = Int32Array.from(kernel);
      this.states = [];
      this.index.clear();
      this.trans = new Int32Array(0);
      this.start = this.intern(new Int32Array(0), CTX_EDGE);
      return this.intern(k, nextType);
    }
    const t = this.intern(Int32Array.from(kernel), nextType);
    const value = (this.states[t] as State).dead ? DEAD : t * this.nc;
    this.trans[s * this.nc + cls] = value;
    return value;
  }

  /**
   * Follow empty transitions from the kernel (and from the program start: the search is
   * unanchored) with the given next-character type; collect SET positions in `out`. Returns
   * whether MATCH is reachable.
   */
  private closure(st: State, next: number, out: number[]): boolean {
    const prog = this.prog;
    const gen = ++this.generation;
    const seen = this.onStack;
    const stack: number[] = [];
    for (let i = st.kernel.length - 1; i >= 0; i -= 1) stack.push(st.kernel[i] as number);
    if (!prog.anchoredStart || st.prev === CTX_EDGE) stack.unshift(0);
    let matched = false;
    while (stack.length > 0) {
      let pc = stack.pop() as number;
      for (;;) {
        if (seen[pc] === gen) break;
        seen[pc] = gen;
        const op = prog.op[pc];
        if (op === OP_SET) {
          out.push(pc);
          break;
        }
        if (op === OP_MATCH) {
          matched = true;
          break;
        }
        if (op === OP_JMP) pc = prog.a[pc] as number;
        else if (op === OP_SPLIT) {
          stack.push(prog.b[pc] as number);
          pc = prog.a[pc] as number;
        } else if (op === OP_SAVE || op === OP_MARK || op === OP_PROGRESS) pc += 1;
        else if (op === OP_ASSERT) {
          if (!assertHolds(prog.a[pc] as number, st.prev, next, this.multiline)) break;
          pc += 1;
        } else break; // not a DFA program; index.ts never sends one
      }
    }
    return matched;
  }

  private intern(kernel: Int32Array, prev: number): number {
    const sorted = Int32Array.from(kernel).sort();
    const key = `${prev}:${sorted.join(',')}`;
    const found = this.index.get(key);
    if (found !== undefined) return found;
    const id = this.states.length;
    const dead = sorted.length === 0 && this.prog.anchoredStart && prev !== CTX_EDGE;
    this.states.push({ kernel: sorted, prev, acceptAtEnd: -1, dead });
    this.index.set(key, id);
    const need = (id + 1) * this.nc;
    if (this.trans.length < need) {
      const grown = new Int32Array(Math.max(need, this.trans.length * 2)).fill(UNKNOWN);
      grown.set(this.trans);
      this.trans = grown;
    }
    return id;
  }
}
