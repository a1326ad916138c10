/**
 * The compiled form shared by the engines: a Thompson NFA over UTF-16 code units (each character
 * instruction consumes exactly one unit; an astral character is a high then a low surrogate), and
 * a partition of all code units into equivalence classes (units no instruction tells apart), so
 * that the Pike VM and the lazy DFA test membership with two array reads.
 * @module
 */
import type { AssertKind, RegexNode } from './ast.js';
import { intersect, type Ranges, subtract, wordChars } from './charset.js';
import { gnuError } from './errors.js';

export const OP_SET = 0;
export const OP_SPLIT = 1;
export const OP_JMP = 2;
export const OP_SAVE = 3;
export const OP_ASSERT = 4;
export const OP_BACKREF = 5;
export const OP_LOOK = 6;
export const OP_ATOMIC = 7;
/** Remember the position in register `a` (start of a loop body that could match empty). */
export const OP_MARK = 8;
/** Fail when the position equals register `a` (the loop body matched empty). */
export const OP_PROGRESS = 9;
export const OP_MATCH = 10;

export const ASSERT_CODES: Readonly<Record<AssertKind, number>> = {
  bol: 0,
  eol: 1,
  bot: 2,
  eot: 3,
  eotnl: 4,
  'word-boundary': 5,
  'not-word-boundary': 6,
  'word-start': 7,
  'word-end': 8,
  'not-word-before': 9,
  'not-word-after': 10,
};

/** Context types around a position, for assertions. */
export const CTX_EDGE = 0;
export const CTX_WORD = 1;
export const CTX_NEWLINE = 2;
export const CTX_OTHER = 3;

/** Whether assertion `code` holds between a `prev` and a `next` context type. */
export function assertHolds(code: number, prev: number, next: number, multiline: boolean): boolean {
  switch (code) {
    case 0:
      return prev === CTX_EDGE || (multiline && prev === CTX_NEWLINE);
    case 1:
      return next === CTX_EDGE || (multiline && next === CTX_NEWLINE);
    case 2:
      return prev === CTX_EDGE;
    case 3:
      return next === CTX_EDGE;
    case 5:
      return (prev === CTX_WORD) !== (next === CTX_WORD);
    case 6:
      return (prev === CTX_WORD) === (next === CTX_WORD);
    case 7:
      return prev !== CTX_WORD && next === CTX_WORD;
    case 8:
      return prev === CTX_WORD && next !== CTX_WORD;
    case 9:
      return prev !== CTX_WORD;
    case 10:
      return next !== CTX_WORD;
    default:
      return false; // eotnl needs the text itself: engines test it directly
  }
}

export const MAX_PROGRAM_SIZE = 250_000;

export interface Program {
  readonly op: Int32Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly length: number;
  /** Capture slots: 2 per group, group 0 the whole match. */
  readonly slots: number;
  /** Loop-progress registers (after the capture slots). */
  readonly registers: number;
  /** Code unit → class. */
  readonly classOf: Uint16Array;
  readonly classCount: number;
  /** Context type of each class (word, newline, other). */
  readonly classType: Uint8Array;
  /** `setHas[set * classCount + cls]` */
  readonly setHas: Uint8Array;
  /** Entry of each lookaround / atomic body (each ends in OP_MATCH). */
  readonly subEntries: readonly number[];
  /** Whether every match must start at the start of the text. */
  readonly anchoredStart: boolean;
  /** Classes that can begin a match; undefined when a match can be empty or start anywhere. */
  readonly firstClasses: Uint8Array | undefined;
}

interface Builder {
  op: number[];
  a: number[];
  b: number[];
  sets: number[][];
  registers: number;
  subEntries: number[];
  /** Lookaround and atomic bodies, compiled after the main program. */
  pending: { node: RegexNode; slot: number }[];
}

/** Compile `node` (groups numbered 1..groupCount) into a program. */
export function compileProgram(node: RegexNode, groupCount: number, wordContext: boolean): Program {
  const bld: Builder = { op: [], a: [], b: [], sets: [], registers: 0, subEntries: [], pending: [] };
  emit(bld, OP_SAVE, 0, 0);
  compileNode(bld, node);
  emit(bld, OP_SAVE, 1, 0);
  emit(bld, OP_MATCH, 0, 0);
  for (let i = 0; i < bld.pending.length; i += 1) {
    const job = bld.pending[i] as { node: RegexNode; slot: number };
    bld.subEntries[job.slot] = bld.op.length;
    compileNode(bld, job.node);
    emit(bld, OP_MATCH, 0, 0);
  }
  if (bld.op.length > MAX_PROGRAM_SIZE) throw gnuError('ESIZE', 0);
  const slots = 2 * (groupCount + 1);
  const classes = buildClasses(bld.sets, wordContext);
  const prog: Program = {
    op: Int32Array.from(bld.op),
    a: Int32Array.from(bld.a),
    b: Int32Array.from(bld.b),
    length: bld.op.length,
    slots,
    registers: bld.registers,
    classOf: classes.classOf,
    classCount: classes.count,
    classType: classes.type,
    setHas: classes.setHas,
    subEntries: bld.subEntries,
    anchoredStart: startsAnchored(node),
    firstClasses: undefined,
  };
  return { ...prog, firstClasses: firstClasses(prog) };
}

function emit(bld: Builder, op: number, a: number, b: number): number {
  bld.op.push(op);
  bld.a.push(a);
  bld.b.push(b);
  if (bld.op.length > MAX_PROGRAM_SIZE) throw gnuError('ESIZE', 0);
  return bld.op.length - 1;
}

function compileNode(bld: Builder, node: RegexNode): void {
  switch (node.type) {
    case 'empty':
      return;
    case 'set':
      compileSet(bld, node.ranges);
      return;
    case 'seq':
      for (const item of node.items) compileNode(bld, item);
      return;
    case 'alt': {
      const jumps: number[] = [];
      node.items.forEach((item, i) => {
        if (i < node.items.length - 1) {
          const split = emit(bld, OP_SPLIT, 0, 0);
          bld.a[split] = bld.op.length;
          compileNode(bld, item);
          jumps.push(emit(bld, OP_JMP, 0, 0));
          bld.b[split] = bld.op.length;
        } else compileNode(bld, item);
      });
      for (const j of jumps) bld.a[j] = bld.op.length;
      return;
    }
    case 'group':
      if (node.index > 0) emit(bld, OP_SAVE, 2 * node.index, 0);
      compileNode(bld, node.node);
      if (node.index > 0) emit(bld, OP_SAVE, 2 * node.index + 1, 0);
      return;
    case 'repeat':
      if (node.possessive) {
        compileNode(bld, { type: 'atomic', node: { ...node, possessive: false } });
        return;
      }
      compileRepeat(bld, node.node, node.min, node.max, node.greedy);
      return;
    case 'backref':
      emit(bld, OP_BACKREF, node.index, 0);
      return;
    case 'assert':
      emit(bld, OP_ASSERT, ASSERT_CODES[node.kind], 0);
      return;
    case 'keep':
      emit(bld, OP_SAVE, 0, 0);
      return;
    case 'look': {
      const slot = bld.subEntries.length;
      bld.subEntries.push(-1);
      bld.pending.push({ node: node.node, slot });
      emit(bld, OP_LOOK, slot, (node.behind ? 1 : 0) | (node.negate ? 2 : 0));
      return;
    }
    case 'atomic': {
      const slot = bld.subEntries.length;
      bld.subEntries.push(-1);
      bld.pending.push({ node: node.node, slot });
      emit(bld, OP_ATOMIC, slot, 0);
      return;
    }
  }
}

function compileRepeat(bld: Builder, body: RegexNode, min: number, max: number, greedy: boolean): void {
  for (let i = 0; i < min; i += 1) compileNode(bld, body);
  if (max === -1) {
    const empty = nullable(body);
    const loop = emit(bld, OP_SPLIT, 0, 0);
    const reg = empty ? bld.registers++ : -1;
    const bodyStart = bld.op.length;
    if (empty) emit(bld, OP_MARK, reg, 0);
    compileNode(bld, body);
    if (empty) emit(bld, OP_PROGRESS, reg, 0);
    emit(bld, OP_JMP, loop, 0);
    const out = bld.op.length;
    bld.a[loop] = greedy ? bodyStart : out;
    bld.b[loop] = greedy ? out : bodyStart;
    return;
  }
  const splits: number[] = [];
  for (let i = min; i < max; i += 1) {
    const split = emit(bld, OP_SPLIT, 0, 0);
    splits.push(split);
    const bodyStart = bld.op.length;
    compileNode(bld, body);
    bld.a[split] = bodyStart;
  }
  const out = bld.op.length;
  for (const s of splits) {
    if (greedy) bld.b[s] = out;
    else {
      bld.b[s] = bld.a[s] as number;
      bld.a[s] = out;
    }
  }
}

/** Whether `node` can match the empty string. */
export function nullable(node: RegexNode): boolean {
  switch (node.type) {
    case 'empty':
    case 'assert':
    case 'look':
    case 'keep':
    case 'backref':
      return true;
    case 'set':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.items.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.node);
    case 'group':
    case 'atomic':
      return nullable(node.node);
  }
}

function startsAnchored(node: RegexNode): boolean {
  switch (node.type) {
    case 'assert':
      return node.kind === 'bot';
    case 'seq':
      return node.items.length > 0 && startsAnchored(node.items[0] as RegexNode);
    case 'group':
    case 'atomic':
      return startsAnchored(node.node);
    case 'alt':
      return node.items.every(startsAnchored);
    default:
      return false;
  }
}

const BMP_LOW: Ranges = [0, 0xd7ff, 0xe000, 0xffff];
const ESCAPES: Ranges = [0xdc80, 0xdcff];

/** One character: BMP units directly, astral code points as (high, low) surrogate pairs. */
function compileSet(bld: Builder, ranges: Ranges): void {
  const units = [...intersect(ranges, BMP_LOW), ...intersect(ranges, ESCAPES)].sort((x, y) => x - y);
  const pairs = astralPairs(intersect(ranges, [0x10000, 0x10ffff]));
  const alternatives: (() => void)[] = [];
  if (units.length > 0) alternatives.push(() => emitSet(bld, units));
  for (const [hi, lo] of pairs)
    alternatives.push(() => {
      emitSet(bld, hi);
      emitSet(bld, lo);
    });
  if (alternatives.length === 0) {
    emitSet(bld, []); // matches nothing
    return;
  }
  const jumps: number[] = [];
  alternatives.forEach((emitOne, i) => {
    if (i < alternatives.length - 1) {
      const split = emit(bld, OP_SPLIT, bld.op.length + 1, 0);
      emitOne();
      jumps.push(emit(bld, OP_JMP, 0, 0));
      bld.b[split] = bld.op.length;
    } else emitOne();
  });
  for (const j of jumps) bld.a[j] = bld.op.length;
}

function emitSet(bld: Builder, unitRanges: Ranges): void {
  bld.sets.push([...unitRanges]);
  emit(bld, OP_SET, bld.sets.length - 1, 0);
}

/** Astral ranges as (high-surrogate range, low-surrogate range) pairs. */
function astralPairs(ranges: Ranges): [Ranges, Ranges][] {
  const out: [Ranges, Ranges][] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = (ranges[i] as number) - 0x10000;
    const hi = (ranges[i + 1] as number) - 0x10000;
    const h1 = 0xd800 + (lo >> 10);
    const h2 = 0xd800 + (hi >> 10);
    const l1 = 0xdc00 + (lo & 0x3ff);
    const l2 = 0xdc00 + (hi & 0x3ff);
    if (h1 === h2) {
      out.push([
        [h1, h1],
        [l1, l2],
      ]);
      continue;
    }
    out.push([
      [h1, h1],
      [l1, 0xdfff],
    ]);
    if (h1 + 1 <= h2 - 1)
      out.push([
        [h1 + 1, h2 - 1],
        [0xdc00, 0xdfff],
      ]);
    out.push([
      [h2, h2],
      [0xdc00, l2],
    ]);
  }
  return out;
}

interface Classes {
  classOf: Uint16Array;
  count: number;
  type: Uint8Array;
  setHas: Uint8Array;
}

function buildClasses(sets: readonly number[][], wordContext: boolean): Classes {
  const cuts = new Set<number>([0, 10, 11, 0x10000]);
  for (const s of sets)
    for (let i = 0; i < s.length; i += 2) {
      cuts.add(s[i] as number);
      cuts.add((s[i + 1] as number) + 1);
    }
  const words = wordContext ? subtract(intersect(wordChars(), [0, 0xffff]), [0xd800, 0xdfff]) : [];
  if (!wordContext) for (const c of [0x30, 0x3a, 0x41, 0x5b, 0x5f, 0x60, 0x61, 0x7b, 0x80]) cuts.add(c);
  for (let i = 0; i < words.length; i += 2) {
    cuts.add(words[i] as number);
    cuts.add((words[i + 1] as number) + 1);
  }
  const sorted = [...cuts].filter((c) => c <= 0x10000).sort((x, y) => x - y);
  const classOf = new Uint16Array(0x10000);
  const count = sorted.length - 1;
  const reps: number[] = [];
  for (let k = 0; k < count; k += 1) {
    const from = sorted[k] as number;
    const to = sorted[k + 1] as number;
    classOf.fill(k, from, to);
    reps.push(from);
  }
  const type = new Uint8Array(count);
  let wi = 0;
  for (let k = 0; k < count; k += 1) {
    const u = reps[k] as number;
    if (u === 10) type[k] = CTX_NEWLINE;
    else if (wordContext) {
      while (wi < words.length && (words[wi + 1] as number) < u) wi += 2;
      type[k] = wi < words.length && (words[wi] as number) <= u ? CTX_WORD : CTX_OTHER;
    } else type[k] = isAsciiWord(u) ? CTX_WORD : CTX_OTHER;
  }
  const setHas = new Uint8Array(sets.length * count);
  sets.forEach((s, si) => {
    for (let i = 0; i < s.length; i += 2) {
      const lo = classOf[s[i] as number] as number;
      const hi = classOf[s[i + 1] as number] as number;
      for (let k = lo; k <= hi; k += 1) setHas[si * count + k] = 1;
    }
  });
  return { classOf, count, type, setHas };
}

function isAsciiWord(u: number): boolean {
  return (u >= 0x30 && u <= 0x39) || (u >= 0x41 && u <= 0x5a) || u === 0x5f || (u >= 0x61 && u <= 0x7a);
}

/** Classes a match can start with, or undefined when a match may be empty. */
function firstClasses(prog: Program): Uint8Array | undefined {
  const out = new Uint8Array(prog.classCount);
  const seen = new Uint8Array(prog.length);
  const stack = [0];
  while (stack.length > 0) {
    const pc = stack.pop() as number;
    if (seen[pc] === 1) continue;
    seen[pc] = 1;
    switch (prog.op[pc]) {
      case OP_SET: {
        const base = (prog.a[pc] as number) * prog.classCount;
        for (let k = 0; k < prog.classCount; k += 1) if (prog.setHas[base + k] === 1) out[k] = 1;
        break;
      }
      case OP_SPLIT:
        stack.push(prog.b[pc] as number, prog.a[pc] as number);
        break;
      case OP_JMP:
        stack.push(prog.a[pc] as number);
        break;
      case OP_SAVE:
      case OP_ASSERT:
      case OP_MARK:
      case OP_PROGRESS:
        stack.push(pc + 1);
        break;
      default:
        return undefined; // match, backref, lookaround: may be empty
    }
  }
  return out;
}
