/**
 * `fmt`: GNU coreutils 9.1's paragraph filler, the same algorithm: each paragraph's line breaks
 * minimise GNU's cost (lines near the goal width, 93% of the maximum; even line lengths; breaks
 * after sentence ends and punctuation preferred, widows and orphans avoided), by dynamic
 * programming from the paragraph's end. Paragraphs follow GNU's rules for indentation, `-c`
 * (crown), `-t` (tagged), `-s` (split only), `-u` (uniform spacing) and `-p` (prefix). Lengths
 * count bytes, as GNU's fmt does. Streams paragraph by paragraph (a paragraph past 1000 words is
 * flushed at a good break, as GNU does).
 * @module
 */

import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand } from './cli.js';
import { errorText, isInputError, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'c', long: 'crown-margin' },
  { short: 'p', long: 'prefix', argument: 'required' },
  { short: 's', long: 'split-only' },
  { short: 't', long: 'tagged-paragraph' },
  { short: 'u', long: 'uniform-spacing' },
  { short: 'w', long: 'width', argument: 'required' },
  { short: 'g', long: 'goal', argument: 'required' },
] as const;

const MAXWORDS = 1000;
const TABWIDTH = 8;
const DEF_INDENT = 3;
const LEEWAY = 7;

const equiv = (n: number): number => n * n;
const SHORT_COST = (n: number): number => equiv(n * 10);
const RAGGED_COST = (n: number): number => Math.trunc(SHORT_COST(n) / 2);
const LINE_COST = equiv(70);
const WIDOW_COST = (n: number): number => Math.trunc(equiv(200) / (n + 2));
const ORPHAN_COST = (n: number): number => Math.trunc(equiv(150) / (n + 2));
const SENTENCE_BONUS = equiv(50);
const NOBREAK_COST = equiv(600);
const PAREN_BONUS = equiv(40);
const PUNCT_BONUS = equiv(40);
const MAXCOST = Number.MAX_SAFE_INTEGER;

interface Word {
  text: Uint8Array;
  length: number;
  space: number;
  paren: boolean;
  period: boolean;
  punct: boolean;
  final: boolean;
  lineLength: number;
  bestCost: number;
  nextBreak: number;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const isPunct = (c: number): boolean =>
  c > 32 && c < 127 && !((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122));

/** The state of GNU fmt's reader and formatter for one run. */
class Formatter {
  private words: Word[] = [];
  private firstIndent = 0;
  private otherIndent = 0;
  private prefixIndent = 0;
  private lastLineLength = 0;
  private outColumn = 0;
  private tabs = false;
  // The current input line after its prefix (GNU's next_char and in_column).
  private line: Uint8Array | null = null;
  private pos = 0;
  private inColumn = 0;
  private nextPrefixIndent = 0;
  private terminated = true;

  constructor(
    private readonly lines: LineReader,
    private readonly out: TextOutput,
    private readonly o: {
      maxWidth: number;
      goalWidth: number;
      crown: boolean;
      tagged: boolean;
      split: boolean;
      uniform: boolean;
      prefix: Uint8Array;
      prefixLeadSpace: number;
      prefixFullLength: number;
    },
  ) {}

  /** The character at the reading position: a byte, 10 at the line's end, -1 at the input's end. */
  private get c(): number {
    if (this.line === null) return -1;
    if (this.pos < this.line.length) return this.line[this.pos] as number;
    return this.terminated ? 10 : -1;
  }

  private getSpace(): void {
    for (;;) {
      const c = this.c;
      if (c === 32) this.inColumn += 1;
      else if (c === 9) {
        this.tabs = true;
        this.inColumn = (Math.floor(this.inColumn / TABWIDTH) + 1) * TABWIDTH;
      } else return;
      this.pos += 1;
    }
  }

  /** Read the next line and skip its prefix (GNU's get_prefix). */
  private async getPrefix(): Promise<void> {
    const l = await this.lines.next();
    this.line = l;
    this.terminated = this.lines.terminated;
    this.pos = 0;
    this.inColumn = 0;
    if (l === null) return;
    this.getSpace();
    const prefix = this.o.prefix;
    if (prefix.length === 0) {
      this.nextPrefixIndent = Math.min(this.o.prefixLeadSpace, this.inColumn);
      return;
    }
    this.nextPrefixIndent = this.inColumn;
    for (const pc of prefix) {
      if (this.c !== pc) return;
      this.inColumn += 1;
      this.pos += 1;
    }
    this.getSpace();
  }

  async run(): Promise<void> {
    await this.getPrefix();
    while (await this.getParagraph()) {
      this.fmtParagraph();
      this.putParagraph(this.words.length);
      this.words = [];
      if (this.out.full) await this.out.flush();
    }
  }

  private sameParagraph(): boolean {
    const c = this.c;
    return (
      this.nextPrefixIndent === this.prefixIndent &&
      this.inColumn >= this.nextPrefixIndent + this.o.prefixFullLength &&
      c !== 10 &&
      c !== -1
    );
  }

  private setOtherIndent(same: boolean): void {
    const o = this.o;
    if (o.split) this.otherIndent = this.firstIndent;
    else if (o.crown) this.otherIndent = same ? this.inColumn : this.firstIndent;
    else if (o.tagged) {
      if (same && this.inColumn !== this.firstIndent) this.otherIndent = this.inColumn;
      else if (this.otherIndent === this.firstIndent)
        this.otherIndent = this.firstIndent === 0 ? DEF_INDENT : 0;
    } else this.otherIndent = this.firstIndent;
  }

  /** Copy a line that is blank or lacks the prefix (GNU's copy_rest). */
  private copyRest(): void {
    this.outColumn = 0;
    const c = this.c;
    if (this.inColumn > this.nextPrefixIndent || (c !== 10 && c !== -1)) {
      this.putSpace(this.nextPrefixIndent);
      for (let k = 0; this.outColumn !== this.inColumn && k < this.o.prefix.length; k += 1) {
        this.out.byte(this.o.prefix[k] as number);
        this.outColumn += 1;
      }
      if (c !== -1 && c !== 10) this.putSpace(this.inColumn - this.outColumn);
      if (this.line !== null && this.pos < this.line.length) this.out.put(this.line.subarray(this.pos));
      this.pos = this.line?.length ?? 0;
    }
  }

  private async getParagraph(): Promise<boolean> {
    this.lastLineLength = 0;
    while (
      this.c === 10 ||
      this.c === -1 ||
      this.nextPrefixIndent < this.o.prefixLeadSpace ||
      this.inColumn < this.nextPrefixIndent + this.o.prefixFullLength
    ) {
      this.copyRest();
      if (this.c === -1) return false;
      this.out.byte(10);
      await this.getPrefix();
    }
    this.prefixIndent = this.nextPrefixIndent;
    this.firstIndent = this.inColumn;
    this.words = [];
    await this.getLine();
    this.setOtherIndent(this.sameParagraph());
    const o = this.o;
    if (o.split) {
      // one line per paragraph
    } else if (o.crown) {
      if (this.sameParagraph()) {
        do await this.getLine();
        while (this.sameParagraph() && this.inColumn === this.otherIndent);
      }
    } else if (o.tagged) {
      if (this.sameParagraph() && this.inColumn !== this.firstIndent) {
        do await this.getLine();
        while (this.sameParagraph() && this.inColumn === this.otherIndent);
      }
    } else {
      while (this.sameParagraph() && this.inColumn === this.otherIndent) await this.getLine();
    }
    const last = this.words[this.words.length - 1] as Word;
    last.period = true;
    last.final = true;
    return true;
  }

  /** Break the rest of the current line into words, then read the next line's prefix. */
  private async getLine(): Promise<void> {
    const line = this.line as Uint8Array;
    for (;;) {
      const start = this.pos;
      while (this.pos < line.length && !isSpace(line[this.pos] as number)) this.pos += 1;
      // A word always takes at least the current character.
      if (this.pos === start) this.pos += 1;
      const text = line.subarray(start, this.pos);
      const w: Word = {
        text,
        length: text.length,
        space: 0,
        paren: false,
        period: false,
        punct: false,
        final: false,
        lineLength: 0,
        bestCost: 0,
        nextBreak: 0,
      };
      this.inColumn += w.length;
      const first = text[0] as number;
      let fin = text.length - 1;
      w.paren = '([\'`"'.includes(String.fromCharCode(first));
      w.punct = isPunct(text[fin] as number);
      while (fin > 0 && ')]\'"'.includes(String.fromCharCode(text[fin] as number))) fin -= 1;
      w.period = '.?!'.includes(String.fromCharCode(text[fin] as number));
      const spaceStart = this.inColumn;
      this.getSpace();
      w.space = this.inColumn - spaceStart;
      const c = this.c;
      w.final = c === -1 || (w.period && (c === 10 || w.space > 1));
      if (c === 10 || c === -1 || this.o.uniform) w.space = w.final ? 2 : 1;
      // GNU flushes when the word being read is the last its array can hold (the word itself carries over).
      if (this.words.length === MAXWORDS - 2) {
        this.setOtherIndent(true);
        this.flushParagraph();
      }
      this.words.push(w);
      if (c === 10 || c === -1) break;
    }
    await this.getPrefix();
  }

  private baseCost(i: number): number {
    const ws = this.words;
    const w = ws[i] as Word;
    let cost = LINE_COST;
    if (i > 0) {
      const prev = ws[i - 1] as Word;
      if (prev.period) cost += prev.final ? -SENTENCE_BONUS : NOBREAK_COST;
      else if (prev.punct) cost -= PUNCT_BONUS;
      else if (i > 1 && (ws[i - 2] as Word).final) cost += WIDOW_COST(prev.length);
    }
    if (w.paren) cost -= PAREN_BONUS;
    else if (w.final) cost += ORPHAN_COST(w.length);
    return cost;
  }

  private lineCost(next: number, len: number, limit: number): number {
    if (next === limit) return 0;
    let cost = SHORT_COST(this.o.goalWidth - len);
    const w = this.words[next] as Word;
    if (w.nextBreak !== limit) cost += RAGGED_COST(len - w.lineLength);
    return cost;
  }

  /** GNU's fmt_paragraph: the cheapest breaks, computed from the end. */
  private fmtParagraph(): void {
    const ws = this.words;
    const limit = ws.length;
    const sentinel: Word = {
      text: new Uint8Array(0),
      length: this.o.maxWidth,
      space: 0,
      paren: false,
      period: false,
      punct: false,
      final: false,
      lineLength: 0,
      bestCost: 0,
      nextBreak: limit,
    };
    ws.push(sentinel);
    for (let start = limit - 1; start >= 0; start -= 1) {
      let best = MAXCOST;
      let len = start === 0 ? this.firstIndent : this.otherIndent;
      let w = start;
      len += (ws[w] as Word).length;
      const s = ws[start] as Word;
      for (;;) {
        w += 1;
        let cost = this.lineCost(w, len, limit) + (ws[w] as Word).bestCost;
        if (start === 0 && this.lastLineLength > 0) cost += RAGGED_COST(len - this.lastLineLength);
        if (cost < best) {
          best = cost;
          s.nextBreak = w;
          s.lineLength = len;
        }
        if (w === limit) break;
        len += (ws[w - 1] as Word).space + (ws[w] as Word).length;
        if (len >= this.o.maxWidth) break;
      }
      s.bestCost = best + this.baseCost(start);
    }
    ws.pop();
  }

  /** A paragraph too long to hold: format it, print up to a cheap break, keep the rest. */
  private flushParagraph(): void {
    const ws = this.words;
    if (ws.length === 0) return;
    this.fmtParagraph();
    const limit = ws.length;
    let split = limit;
    let best = MAXCOST;
    for (let w = (ws[0] as Word).nextBreak; w !== limit; w = (ws[w] as Word).nextBreak) {
      const here =
        (ws[w] as Word).bestCost - ((ws[(ws[w] as Word).nextBreak] as Word | undefined)?.bestCost ?? 0);
      if (here < best) {
        split = w;
        best = here;
      }
      if (best <= MAXCOST - LINE_COST) best += LINE_COST;
    }
    this.putParagraph(split);
    this.words = ws.slice(split);
    this.firstIndent = this.otherIndent;
  }

  private putParagraph(finish: number): void {
    this.putLine(0, this.firstIndent);
    for (
      let w = (this.words[0] as Word).nextBreak;
      w !== finish && w < this.words.length;
      w = (this.words[w] as Word).nextBreak
    )
      this.putLine(w, this.otherIndent);
  }

  private putSpace(space: number): void {
    const target = this.outColumn + space;
    if (this.tabs) {
      const tabTarget = Math.floor(target / TABWIDTH) * TABWIDTH;
      if (this.outColumn + 1 < tabTarget) {
        while (this.outColumn < tabTarget) {
          this.out.byte(9);
          this.outColumn = (Math.floor(this.outColumn / TABWIDTH) + 1) * TABWIDTH;
        }
      }
    }
    while (this.outColumn < target) {
      this.out.byte(32);
      this.outColumn += 1;
    }
  }

  private putLine(start: number, indent: number): void {
    this.outColumn = 0;
    this.putSpace(this.prefixIndent);
    this.out.put(this.o.prefix);
    this.outColumn += this.o.prefix.length;
    this.putSpace(indent - this.outColumn);
    const end = (this.words[start] as Word).nextBreak - 1;
    for (let w = start; w <= end; w += 1) {
      const word = this.words[w] as Word;
      this.out.put(word.text);
      this.outColumn += word.length;
      if (w !== end) this.putSpace(word.space);
    }
    this.lastLineLength = this.outColumn;
    this.out.byte(10);
  }
}

async function fmt(ctx: CommandContext): Promise<number> {
  const argv = [...ctx.argv];
  if (/^-\d+$/.test(argv[1] ?? '')) argv[1] = `-w${(argv[1] as string).slice(1)}`;
  const line = await parseCommandLine({ ...ctx, argv }, 'fmt', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let crown = false;
  let tagged = false;
  let split = false;
  let uniform = false;
  let prefixText = '';
  let width: number | undefined;
  let goal: number | undefined;
  for (const o of line.options) {
    const v = o.value as string;
    if (o.key === 'crown-margin') crown = true;
    else if (o.key === 'tagged-paragraph') tagged = true;
    else if (o.key === 'split-only') split = true;
    else if (o.key === 'uniform-spacing') uniform = true;
    else if (o.key === 'prefix') prefixText = v;
    else if (o.key === 'width' || o.key === 'goal') {
      if (!/^\d+$/.test(v) || Number(v) > 2500) {
        await printError(ctx, `fmt: invalid ${o.key === 'width' ? 'width' : 'goal'}: ${quoteValue(v)}\n`);
        return 1;
      }
      if (o.key === 'width') width = Number(v);
      else goal = Number(v);
    }
  }
  let maxWidth = width ?? 75;
  let goalWidth: number;
  if (goal !== undefined) {
    goalWidth = goal;
    if (width === undefined) maxWidth = goalWidth + 10;
  } else goalWidth = Math.trunc((maxWidth * (2 * (100 - LEEWAY) + 1)) / 200);
  if (goalWidth > maxWidth) {
    await printError(ctx, `fmt: invalid width: ${quoteValue(String(maxWidth))}\n`);
    return 1;
  }
  let lead = 0;
  while (prefixText[lead] === ' ') lead += 1;
  const prefixRest = prefixText.slice(lead);
  const prefix = encodeText(prefixRest.replace(/ +$/, ''));
  const options = {
    maxWidth,
    goalWidth,
    crown,
    tagged,
    split,
    uniform,
    prefix,
    prefixLeadSpace: lead,
    prefixFullLength: encodeText(prefixRest).length,
  };
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  for (const operand of line.operands.length === 0 ? ['-'] : line.operands) {
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(
        ctx,
        `fmt: cannot open ${quoteNameAlways(operand)} for reading: ${errorText(opened.error)}\n`,
      );
      status = 1;
      continue;
    }
    try {
      await new Formatter(new LineReader(flushingReader(opened.input.reader, out)), out, options).run();
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      // GNU 9.1 names no reason.
      await printError(ctx, 'fmt: read error\n');
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  await out.flush();
  ctx.stdin.close();
  return status;
}

export const fmtCommand: CommandSpec = {
  name: 'fmt',
  summary: 'simple optimal text formatter',
  help: helpText('fmt'),
  run: (ctx) => runCommand(ctx, () => fmt(ctx)),
};
