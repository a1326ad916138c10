/**
 * GNU diff's comparison, step for step, so hunks come out in exactly GNU's shape: lines hashed
 * into equivalence classes (under `-i -w -b -Z`), lines with no match in the other file
 * discarded first (`discard_confusing_lines`), Myers' O(ND) search with divide and conquer
 * (gnulib's `diffseq.h`: `diag` and `compareseq`, with its "too expensive" cut-off), runs of
 * changes slid to GNU's canonical place (`shift_boundaries`), then the edit script.
 * @module
 */

/** One line: its bytes without the newline, and whether a newline ended it. */
export interface DiffLine {
  readonly bytes: Uint8Array;
  readonly newline: boolean;
}

/** A change: `deleted` lines of file 0 from `line0` became `inserted` lines of file 1 from `line1`. */
export interface DiffChange {
  readonly line0: number;
  readonly line1: number;
  readonly deleted: number;
  readonly inserted: number;
}

export interface DiffEquivalence {
  readonly ignoreCase?: boolean | undefined;
  /** `-w`: all white space. */
  readonly ignoreAllSpace?: boolean | undefined;
  /** `-b`: changes in the amount of white space. */
  readonly ignoreSpaceChange?: boolean | undefined;
  /** `-Z`: white space at line end. */
  readonly ignoreTrailingSpace?: boolean | undefined;
  /** `-d`: no discarding, no cut-off (the smallest set of changes). */
  readonly minimal?: boolean | undefined;
  /**
   * Lines of an identical head and tail still compared (GNU's horizon: the context of the output
   * format, so the first and last hunks can slide as GNU slides them).
   */
  readonly horizonLines?: number | undefined;
}

/** Split `data` into lines as diff reads them. */
export function splitDiffLines(data: Uint8Array): DiffLine[] {
  const lines: DiffLine[] = [];
  let start = 0;
  while (start < data.length) {
    const nl = data.indexOf(0x0a, start);
    if (nl === -1) {
      lines.push({ bytes: data.subarray(start), newline: false });
      break;
    }
    lines.push({ bytes: data.subarray(start, nl), newline: true });
    start = nl + 1;
  }
  return lines;
}

const isSpace = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/** The text two lines must share to be equal under the options (one char per byte). */
export function equivalenceKey(line: DiffLine, o: DiffEquivalence): string {
  let bytes = line.bytes;
  let key: string;
  if (o.ignoreAllSpace === true) {
    let s = '';
    for (const b of bytes) if (!isSpace(b)) s += String.fromCharCode(b);
    key = s;
  } else if (o.ignoreSpaceChange === true) {
    let s = '';
    let pendingSpace = false;
    for (const b of bytes) {
      if (isSpace(b)) {
        pendingSpace = true;
        continue;
      }
      if (pendingSpace && s !== '') s += ' ';
      else if (pendingSpace) s += ' ';
      pendingSpace = false;
      s += String.fromCharCode(b);
    }
    key = s;
  } else {
    if (o.ignoreTrailingSpace === true) {
      let end = bytes.length;
      while (end > 0 && isSpace(bytes[end - 1] as number)) end -= 1;
      bytes = bytes.subarray(0, end);
    }
    key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
  if (o.ignoreCase === true) key = key.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  // An unterminated last line differs from a terminated one unless white space is ignored.
  const spaceBlind =
    o.ignoreAllSpace === true || o.ignoreSpaceChange === true || o.ignoreTrailingSpace === true;
  return line.newline || spaceBlind ? key : `${key}\u{10000}`;
}

/** The edit script turning `a` into `b`, in GNU's shape. */
export function diffLines(
  a: readonly DiffLine[],
  b: readonly DiffLine[],
  o: DiffEquivalence = {},
): DiffChange[] {
  // GNU compares only what lies between the identical head and tail (`find_identical_ends`),
  // keeping `horizonLines` of each; the rest takes no part in the equivalence counts.
  const horizon = o.horizonLines ?? 0;
  let same = 0;
  while (same < a.length && same < b.length && identical(a[same] as DiffLine, b[same] as DiffLine)) same += 1;
  const prefix = Math.max(0, same - horizon);
  let tail = 0;
  const lastA = a[a.length - 1];
  const lastB = b[b.length - 1];
  if ((lastA?.newline ?? true) === (lastB?.newline ?? true)) {
    const bound = Math.min(a.length, b.length) - prefix;
    while (tail < bound && identical(a[a.length - 1 - tail] as DiffLine, b[b.length - 1 - tail] as DiffLine))
      tail += 1;
  }
  const suffix = Math.max(0, tail - horizon);
  const script = diffMiddle(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix), o);
  if (prefix === 0) return script;
  return script.map((c) => ({ ...c, line0: c.line0 + prefix, line1: c.line1 + prefix }));
}

function identical(x: DiffLine, y: DiffLine): boolean {
  if (x.newline !== y.newline || x.bytes.length !== y.bytes.length) return false;
  return Buffer.from(x.bytes.buffer, x.bytes.byteOffset, x.bytes.byteLength).equals(y.bytes);
}

function diffMiddle(a: readonly DiffLine[], b: readonly DiffLine[], o: DiffEquivalence): DiffChange[] {
  // Equivalence classes, numbered from 1 in order of first appearance.
  const classes = new Map<string, number>();
  const classOf = (line: DiffLine): number => {
    const key = equivalenceKey(line, o);
    let c = classes.get(key);
    if (c === undefined) {
      c = classes.size + 1;
      classes.set(key, c);
    }
    return c;
  };
  const equivs = [Int32Array.from(a, classOf), Int32Array.from(b, classOf)] as const;
  const classCount = classes.size + 1;
  // changed[f] has a zero sentinel before and after (index 0 and n + 1).
  const changed = [new Uint8Array(a.length + 2), new Uint8Array(b.length + 2)] as const;
  const minimal = o.minimal === true;
  const { undiscarded, realIndexes } = discardConfusingLines(equivs, changed, classCount, minimal);
  const ctx = new SeqContext(undiscarded[0], undiscarded[1], changed, realIndexes, minimal);
  ctx.compareseq(0, undiscarded[0].length, 0, undiscarded[1].length, minimal);
  shiftBoundaries(equivs, changed);
  return buildScript(changed, a.length, b.length);
}

function discardConfusingLines(
  equivs: readonly [Int32Array, Int32Array],
  changed: readonly [Uint8Array, Uint8Array],
  classCount: number,
  minimal: boolean,
): { undiscarded: [Int32Array, Int32Array]; realIndexes: [Int32Array, Int32Array] } {
  const counts = [new Int32Array(classCount), new Int32Array(classCount)] as const;
  for (let f = 0; f < 2; f += 1) {
    const count = counts[f] as Int32Array;
    for (const e of equivs[f] as Int32Array) count[e] = (count[e] as number) + 1;
  }
  const discarded = [new Uint8Array(equivs[0].length), new Uint8Array(equivs[1].length)] as const;
  for (let f = 0; f < 2; f += 1) {
    const end = (equivs[f] as Int32Array).length;
    const discards = discarded[f] as Uint8Array;
    const other = counts[1 - f] as Int32Array;
    const eq = equivs[f] as Int32Array;
    let many = 5;
    for (let tem = Math.floor(end / 64) >> 2; tem > 0; tem >>= 2) many *= 2;
    for (let i = 0; i < end; i += 1) {
      const nmatch = other[eq[i] as number] as number;
      if (nmatch === 0) discards[i] = 1;
      else if (nmatch > many) discards[i] = 2;
    }
  }
  for (let f = 0; f < 2; f += 1) {
    const discards = discarded[f] as Uint8Array;
    const end = discards.length;
    for (let i = 0; i < end; i += 1) {
      if (discards[i] === 2) {
        discards[i] = 0;
        continue;
      }
      if (discards[i] === 0) continue;
      let j: number;
      let provisional = 0;
      for (j = i; j < end; j += 1) {
        if (discards[j] === 0) break;
        if (discards[j] === 2) provisional += 1;
      }
      while (j > i && discards[j - 1] === 2) {
        j -= 1;
        discards[j] = 0;
        provisional -= 1;
      }
      const length = j - i;
      if (provisional * 4 > length) {
        while (j > i) {
          j -= 1;
          if (discards[j] === 2) discards[j] = 0;
        }
      } else {
        let minimum = 1;
        for (let t = length >> 4; t > 0; t >>= 2) minimum <<= 1;
        minimum += 1;
        let consec = 0;
        for (j = 0; j < length; j += 1) {
          if (discards[i + j] !== 2) consec = 0;
          else {
            consec += 1;
            if (minimum === consec) j -= consec;
            else if (minimum < consec) discards[i + j] = 0;
          }
        }
        consec = 0;
        for (j = 0; j < length; j += 1) {
          if (j >= 8 && discards[i + j] === 1) break;
          if (discards[i + j] === 2) {
            consec = 0;
            discards[i + j] = 0;
          } else if (discards[i + j] === 0) consec = 0;
          else consec += 1;
          if (consec === 3) break;
        }
        i += length - 1;
        consec = 0;
        for (j = 0; j < length; j += 1) {
          if (j >= 8 && discards[i - j] === 1) break;
          if (discards[i - j] === 2) {
            consec = 0;
            discards[i - j] = 0;
          } else if (discards[i - j] === 0) consec = 0;
          else consec += 1;
          if (consec === 3) break;
        }
      }
    }
  }
  const undiscarded: Int32Array[] = [];
  const realIndexes: Int32Array[] = [];
  for (let f = 0; f < 2; f += 1) {
    const eq = equivs[f] as Int32Array;
    const discards = discarded[f] as Uint8Array;
    const keep = new Int32Array(eq.length);
    const real = new Int32Array(eq.length);
    let j = 0;
    for (let i = 0; i < eq.length; i += 1) {
      if (minimal || discards[i] === 0) {
        keep[j] = eq[i] as number;
        real[j] = i;
        j += 1;
      } else {
        (changed[f] as Uint8Array)[i + 1] = 1;
      }
    }
    undiscarded.push(keep.subarray(0, j));
    realIndexes.push(real.subarray(0, j));
  }
  return {
    undiscarded: undiscarded as [Int32Array, Int32Array],
    realIndexes: realIndexes as [Int32Array, Int32Array],
  };
}

interface Partition {
  xmid: number;
  ymid: number;
  loMinimal: boolean;
  hiMinimal: boolean;
}

/** gnulib's diffseq.h over the undiscarded lines. */
class SeqContext {
  private readonly fd: Int32Array;
  private readonly bd: Int32Array;
  /** Index of diagonal 0 in `fd` and `bd`. */
  private readonly zero: number;
  private readonly tooExpensive: number;

  constructor(
    private readonly xv: Int32Array,
    private readonly yv: Int32Array,
    private readonly changed: readonly [Uint8Array, Uint8Array],
    private readonly realIndexes: readonly [Int32Array, Int32Array],
    minimal: boolean,
  ) {
    let diags = xv.length + yv.length + 3;
    this.fd = new Int32Array(diags);
    this.bd = new Int32Array(diags);
    this.zero = yv.length + 1;
    let tooExpensive = 1;
    for (; diags !== 0; diags >>= 2) tooExpensive <<= 1;
    this.tooExpensive = minimal ? Number.POSITIVE_INFINITY : Math.max(4096, tooExpensive);
  }

  compareseq(xoff: number, xlim: number, yoff: number, ylim: number, findMinimal: boolean): void {
    // An explicit stack instead of recursion: deep inputs must not overflow the JS stack.
    const stack: [number, number, number, number, boolean][] = [[xoff, xlim, yoff, ylim, findMinimal]];
    const xv = this.xv;
    const yv = this.yv;
    while (stack.length > 0) {
      let [x0, x1, y0, y1, minimal] = stack.pop() as [number, number, number, number, boolean];
      while (x0 < x1 && y0 < y1 && xv[x0] === yv[y0]) {
        x0 += 1;
        y0 += 1;
      }
      while (x0 < x1 && y0 < y1 && xv[x1 - 1] === yv[y1 - 1]) {
        x1 -= 1;
        y1 -= 1;
      }
      if (x0 === x1) {
        for (; y0 < y1; y0 += 1) (this.changed[1] as Uint8Array)[(this.realIndexes[1][y0] as number) + 1] = 1;
      } else if (y0 === y1) {
        for (; x0 < x1; x0 += 1) (this.changed[0] as Uint8Array)[(this.realIndexes[0][x0] as number) + 1] = 1;
      } else {
        const part = this.diag(x0, x1, y0, y1, minimal);
        // The low half first, as the recursion does (order does not change the result).
        stack.push([part.xmid, x1, part.ymid, y1, part.hiMinimal]);
        stack.push([x0, part.xmid, y0, part.ymid, part.loMinimal]);
      }
    }
  }

  private diag(xoff: number, xlim: number, yoff: number, ylim: number, findMinimal: boolean): Partition {
    const fd = this.fd;
    const bd = this.bd;
    const z = this.zero;
    const xv = this.xv;
    const yv = this.yv;
    const dmin = xoff - ylim;
    const dmax = xlim - yoff;
    const fmid = xoff - yoff;
    const bmid = xlim - ylim;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    const odd = ((fmid - bmid) & 1) !== 0;
    fd[z + fmid] = xoff;
    bd[z + bmid] = xlim;
    for (let c = 1; ; c += 1) {
      if (fmin > dmin) {
        fmin -= 1;
        fd[z + fmin - 1] = -1;
      } else fmin += 1;
      if (fmax < dmax) {
        fmax += 1;
        fd[z + fmax + 1] = -1;
      } else fmax -= 1;
      for (let d = fmax; d >= fmin; d -= 2) {
        const tlo = fd[z + d - 1] as number;
        const thi = fd[z + d + 1] as number;
        const x0 = tlo < thi ? thi : tlo + 1;
        let x = x0;
        let y = x0 - d;
        while (x < xlim && y < ylim && xv[x] === yv[y]) {
          x += 1;
          y += 1;
        }
        fd[z + d] = x;
        if (odd && bmin <= d && d <= bmax && (bd[z + d] as number) <= x)
          return { xmid: x, ymid: y, loMinimal: true, hiMinimal: true };
      }
      if (bmin > dmin) {
        bmin -= 1;
        bd[z + bmin - 1] = 0x7fffffff;
      } else bmin += 1;
      if (bmax < dmax) {
        bmax += 1;
        bd[z + bmax + 1] = 0x7fffffff;
      } else bmax -= 1;
      for (let d = bmax; d >= bmin; d -= 2) {
        const tlo = bd[z + d - 1] as number;
        const thi = bd[z + d + 1] as number;
        const x0 = tlo < thi ? tlo : thi - 1;
        let x = x0;
        let y = x0 - d;
        while (xoff < x && yoff < y && xv[x - 1] === yv[y - 1]) {
          x -= 1;
          y -= 1;
        }
        bd[z + d] = x;
        if (!odd && fmin <= d && d <= fmax && x <= (fd[z + d] as number))
          return { xmid: x, ymid: y, loMinimal: true, hiMinimal: true };
      }
      if (findMinimal) continue;
      if (c >= this.tooExpensive) {
        let fxybest = -1;
        let fxbest = 0;
        for (let d = fmax; d >= fmin; d -= 2) {
          let x = Math.min(fd[z + d] as number, xlim);
          let y = x - d;
          if (ylim < y) {
            x = ylim + d;
            y = ylim;
          }
          if (fxybest < x + y) {
            fxybest = x + y;
            fxbest = x;
          }
        }
        let bxybest = Number.MAX_SAFE_INTEGER;
        let bxbest = 0;
        for (let d = bmax; d >= bmin; d -= 2) {
          let x = Math.max(xoff, bd[z + d] as number);
          let y = x - d;
          if (y < yoff) {
            x = yoff + d;
            y = yoff;
          }
          if (x + y < bxybest) {
            bxybest = x + y;
            bxbest = x;
          }
        }
        if (xlim + ylim - bxybest < fxybest - (xoff + yoff))
          return { xmid: fxbest, ymid: fxybest - fxbest, loMinimal: true, hiMinimal: false };
        return { xmid: bxbest, ymid: bxybest - bxbest, loMinimal: false, hiMinimal: true };
      }
    }
  }
}

/** GNU's `shift_boundaries`: each run of changes slid to merge with others, else as far down as it goes. */
function shiftBoundaries(
  equivs: readonly [Int32Array, Int32Array],
  changed: readonly [Uint8Array, Uint8Array],
): void {
  for (let f = 0; f < 2; f += 1) {
    // Index k of the arrays below is line k - 1 (a zero sentinel on each side).
    const ch = changed[f] as Uint8Array;
    const other = changed[1 - f] as Uint8Array;
    const eq = equivs[f] as Int32Array;
    const e = (k: number): number => eq[k - 1] as number;
    let i = 1;
    let j = 1;
    const iEnd = eq.length + 1;
    for (;;) {
      while (i < iEnd && ch[i] === 0) {
        while (other[j++] !== 0) {}
        i += 1;
      }
      if (i === iEnd) break;
      let start = i;
      while (ch[++i] !== 0) {}
      while (other[j] !== 0) j += 1;
      let runlength: number;
      let corresponding: number;
      do {
        runlength = i - start;
        while (start > 1 && e(start - 1) === e(i - 1)) {
          ch[--start] = 1;
          ch[--i] = 0;
          while (ch[start - 1] !== 0) start -= 1;
          while (other[--j] !== 0) {}
        }
        corresponding = other[j - 1] !== 0 ? i : iEnd;
        while (i !== iEnd && e(start) === e(i)) {
          ch[start++] = 0;
          ch[i++] = 1;
          while (ch[i] !== 0) i += 1;
          while (other[++j] !== 0) corresponding = i;
        }
      } while (runlength !== i - start);
      while (corresponding < i) {
        ch[--start] = 1;
        ch[--i] = 0;
        while (other[--j] !== 0) {}
      }
    }
  }
}

function buildScript(changed: readonly [Uint8Array, Uint8Array], n0: number, n1: number): DiffChange[] {
  const c0 = changed[0];
  const c1 = changed[1];
  const script: DiffChange[] = [];
  let i0 = 0;
  let i1 = 0;
  // Forward walk over lines (index k in c0/c1 is line k - 1).
  while (i0 < n0 || i1 < n1) {
    if (c0[i0 + 1] !== 0 || c1[i1 + 1] !== 0) {
      const line0 = i0;
      const line1 = i1;
      while (i0 < n0 && c0[i0 + 1] !== 0) i0 += 1;
      while (i1 < n1 && c1[i1 + 1] !== 0) i1 += 1;
      script.push({ line0, line1, deleted: i0 - line0, inserted: i1 - line1 });
    }
    i0 += 1;
    i1 += 1;
  }
  return script;
}
