/**
 * `join`: GNU coreutils 9.1. Streams both sorted inputs; only the run of lines sharing the
 * current key is held. Unsorted input is reported as GNU does (`join: FILE:N: is not sorted:
 * LINE` once per file, then status 1), `--check-order` makes it fatal.
 * @module
 */

import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, type Input, isInputError, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'a', argument: 'required' },
  { short: 'e', argument: 'required' },
  { short: 'i', long: 'ignore-case' },
  { short: 'j', argument: 'required' },
  { short: 'o', argument: 'required' },
  { short: 't', argument: 'required' },
  { short: 'v', argument: 'required' },
  { short: '1', argument: 'required' },
  { short: '2', argument: 'required' },
  { long: 'check-order' },
  { long: 'nocheck-order' },
  { long: 'header' },
  { short: 'z', long: 'zero-terminated' },
] as const;

/** A line and where its fields are (`starts[i]`..`ends[i]`). */
interface JoinLine {
  readonly bytes: Uint8Array;
  readonly starts: number[];
  readonly ends: number[];
}

const BLANK: JoinLine = { bytes: new Uint8Array(0), starts: [], ends: [] };

class JoinUsage extends Error {
  constructor(
    message: string,
    readonly tryHelp = false,
  ) {
    super(message);
  }
}

interface OutputField {
  readonly file: 0 | 1 | 2;
  readonly field: number;
}

interface JoinPlan {
  field1: number;
  field2: number;
  unpaired1: boolean;
  unpaired2: boolean;
  paired: boolean;
  empty: Uint8Array | undefined;
  ignoreCase: boolean;
  format: OutputField[] | 'auto' | undefined;
  /** The `-t` byte, -1 for runs of blanks. */
  tab: number;
  check: 'default' | 'enabled' | 'disabled';
  header: boolean;
  eol: number;
}

function fieldNumber(text: string): number {
  const m = /^\s*\+?(\d+)$/.exec(text);
  if (m === null || /^0+$/.test(m[1] as string))
    throw new JoinUsage(`invalid field number: ${quoteValue(text)}`);
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n - 1 : Number.MAX_SAFE_INTEGER;
}

function fileNumber(text: string): 1 | 2 {
  if (text === '1' || text === '2') return Number(text) as 1 | 2;
  throw new JoinUsage(`invalid field number: ${quoteValue(text)}`);
}

function parseFormat(text: string, into: OutputField[]): void {
  for (const spec of text.split(/[, \t]+/).filter((s) => s !== '')) {
    if (spec === '0') {
      into.push({ file: 0, field: 0 });
      continue;
    }
    const m = /^([12])\.(.*)$/.exec(spec);
    if (m === null) throw new JoinUsage(`invalid file number in field spec: ${quoteValue(spec)}`);
    into.push({ file: Number(m[1]) as 1 | 2, field: fieldNumber(m[2] as string) });
  }
}

async function join(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'join', { options: OPTIONS });
  if (typeof line === 'number') return line;
  const plan: JoinPlan = {
    field1: 0,
    field2: 0,
    unpaired1: false,
    unpaired2: false,
    paired: true,
    empty: undefined,
    ignoreCase: false,
    format: undefined,
    tab: -1,
    check: 'default',
    header: false,
    eol: 0x0a,
  };
  try {
    for (const o of line.options) {
      const v = o.value as string;
      switch (o.key) {
        case 'a':
          if (fileNumber(v) === 1) plan.unpaired1 = true;
          else plan.unpaired2 = true;
          break;
        case 'v':
          plan.paired = false;
          if (fileNumber(v) === 1) plan.unpaired1 = true;
          else plan.unpaired2 = true;
          break;
        case 'e':
          plan.empty = encodeText(v);
          break;
        case 'ignore-case':
          plan.ignoreCase = true;
          break;
        case 'j':
          plan.field1 = fieldNumber(v);
          plan.field2 = plan.field1;
          break;
        case '1':
          plan.field1 = fieldNumber(v);
          break;
        case '2':
          plan.field2 = fieldNumber(v);
          break;
        case 'o':
          if (v === 'auto') plan.format = 'auto';
          else {
            const list = Array.isArray(plan.format) ? plan.format : [];
            parseFormat(v, list);
            plan.format = list;
          }
          break;
        case 't': {
          const bytes = encodeText(v);
          let t: number;
          if (bytes.length === 0) t = 0x0a;
          else if (bytes.length === 1) t = bytes[0] as number;
          else if (v === '\\0') t = 0;
          else throw new JoinUsage(`multi-character tab ${quoteValue(v)}`);
          if (plan.tab !== -1 && plan.tab !== t) throw new JoinUsage('incompatible tabs');
          plan.tab = t;
          break;
        }
        case 'check-order':
          plan.check = 'enabled';
          break;
        case 'nocheck-order':
          plan.check = 'disabled';
          break;
        case 'header':
          plan.header = true;
          break;
        case 'zero-terminated':
          plan.eol = 0;
          break;
      }
    }
  } catch (error) {
    if (!(error instanceof JoinUsage)) throw error;
    if (error.tryHelp) return usageError(ctx, 'join', error.message);
    await printError(ctx, `join: ${error.message}\n`);
    return 1;
  }
  const ops = line.operands;
  if (ops.length < 2)
    return usageError(
      ctx,
      'join',
      ops.length === 0 ? 'missing operand' : `missing operand after ${quoteValue(ops[0] as string)}`,
    );
  if (ops.length > 2) return usageError(ctx, 'join', `extra operand ${quoteNameAlways(ops[2] as string)}`);
  if (ops[0] === '-' && ops[1] === '-') {
    // GNU's message carries a stale errno.
    await printError(ctx, 'join: both files cannot be standard input: No such file or directory\n');
    return 1;
  }
  const inputs: Input[] = [];
  for (const name of ops) {
    const opened = await openInput(ctx, name);
    if (!opened.ok) {
      for (const i of inputs) await i.close();
      await printError(ctx, `join: ${quoteName(name)}: ${errorText(opened.error)}\n`);
      return 1;
    }
    inputs.push(opened.input);
  }
  const out = new TextOutput(ctx.stdout);
  const run = new JoinRun(ctx, plan, out, ops as [string, string], inputs);
  try {
    const status = await run.join();
    await out.flush();
    if (status !== 0) return status;
    if (run.warned[0] || run.warned[1]) {
      await printError(ctx, 'join: input is not in sorted order\n');
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof FatalDisorder) {
      await out.flush();
      return 1;
    }
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `join: read error: ${errorText(error)}\n`);
    return 1;
  } finally {
    for (const i of inputs) await i.close();
    ctx.stdin.close();
  }
}

class FatalDisorder extends Error {}

class JoinRun {
  readonly warned = [false, false];
  private seenUnpairable = false;
  private readonly readers: LineReader[];
  private readonly lineNumbers = [0, 0];
  private readonly previous: (JoinLine | undefined)[] = [undefined, undefined];
  private autoCount = [0, 0];
  /** The operand being read (for a read error's message). */
  reading = '';

  constructor(
    private readonly ctx: CommandContext,
    private readonly plan: JoinPlan,
    private readonly out: TextOutput,
    private readonly names: readonly [string, string],
    inputs: readonly Input[],
  ) {
    this.readers = inputs.map((i) => new LineReader(flushingReader(i.reader, out), { delimiter: plan.eol }));
  }

  private split(bytes: Uint8Array): JoinLine {
    const starts: number[] = [];
    const ends: number[] = [];
    const n = bytes.length;
    const tab = this.plan.tab;
    if (tab === 0x0a) {
      if (n > 0) {
        starts.push(0);
        ends.push(n);
      }
    } else if (tab !== -1) {
      if (n > 0) {
        let start = 0;
        for (let i = 0; i < n; i += 1) {
          if (bytes[i] === tab) {
            starts.push(start);
            ends.push(i);
            start = i + 1;
          }
        }
        starts.push(start);
        ends.push(n);
      }
    } else {
      // Runs of blanks separate fields; trailing blanks leave an empty last field, as in GNU.
      const blank = (b: number): boolean => b === 32 || b === 9 || b === 10;
      let i = 0;
      while (i < n && blank(bytes[i] as number)) i += 1;
      if (i < n) {
        for (;;) {
          const start = i;
          while (i < n && !blank(bytes[i] as number)) i += 1;
          starts.push(start);
          ends.push(i);
          if (i === n) break;
          while (i < n && blank(bytes[i] as number)) i += 1;
          if (i === n) {
            starts.push(n);
            ends.push(n);
            break;
          }
        }
      }
    }
    return { bytes, starts, ends };
  }

  /** Read the next line of file `which` (0 or 1), checking its order. */
  private async read(which: 0 | 1): Promise<JoinLine | undefined> {
    this.reading = this.names[which];
    const bytes = await (this.readers[which] as LineReader).next();
    if (bytes === null) return undefined;
    this.lineNumbers[which] = (this.lineNumbers[which] as number) + 1;
    const l = this.split(bytes);
    const prev = this.previous[which];
    if (prev !== undefined) await this.checkOrder(prev, l, which);
    this.previous[which] = l;
    return l;
  }

  private async checkOrder(prev: JoinLine, current: JoinLine, which: 0 | 1): Promise<void> {
    const p = this.plan;
    if (p.check === 'disabled' || (p.check === 'default' && !this.seenUnpairable) || this.warned[which])
      return;
    const f = which === 0 ? p.field1 : p.field2;
    if (this.compare(prev, current, f, f) <= 0) return;
    await this.out.flush();
    const text = Buffer.from(current.bytes).toString('latin1');
    await this.ctx.stderr.write(
      new Uint8Array(
        Buffer.from(
          `join: ${this.names[which]}:${this.lineNumbers[which]}: is not sorted: ${text}\n`,
          'latin1',
        ),
      ),
    );
    if (p.check === 'enabled') throw new FatalDisorder();
    this.warned[which] = true;
  }

  private field(l: JoinLine, n: number): Uint8Array | undefined {
    if (n >= l.starts.length) return undefined;
    return l.bytes.subarray(l.starts[n], l.ends[n]);
  }

  private compare(a: JoinLine, b: JoinLine, fa: number, fb: number): number {
    const x = this.field(a, fa) ?? new Uint8Array(0);
    const y = this.field(b, fb) ?? new Uint8Array(0);
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i += 1) {
      let c = x[i] as number;
      let d = y[i] as number;
      if (this.plan.ignoreCase) {
        if (c >= 97 && c <= 122) c -= 32;
        if (d >= 97 && d <= 122) d -= 32;
      }
      if (c !== d) return c - d;
    }
    return x.length - y.length;
  }

  private putField(l: JoinLine, n: number): void {
    const f = this.field(l, n);
    if (f !== undefined && f.length > 0) this.out.put(f);
    else if (this.plan.empty !== undefined) this.out.put(this.plan.empty);
  }

  private putOtherFields(l: JoinLine, joinField: number, count: number): void {
    const sep = this.plan.tab === -1 ? 32 : this.plan.tab;
    const n = this.plan.format === 'auto' ? count : l.starts.length;
    for (let i = 0; i < joinField && i < n; i += 1) {
      this.out.byte(sep);
      this.putField(l, i);
    }
    for (let i = joinField + 1; i < n; i += 1) {
      this.out.byte(sep);
      this.putField(l, i);
    }
  }

  private output(a: JoinLine, b: JoinLine): void {
    const p = this.plan;
    const sep = p.tab === -1 ? 32 : p.tab;
    if (Array.isArray(p.format)) {
      p.format.forEach((o, i) => {
        if (i > 0) this.out.byte(sep);
        if (o.file === 0) {
          if (a === BLANK) this.putField(b, p.field2);
          else this.putField(a, p.field1);
        } else this.putField(o.file === 1 ? a : b, o.field);
      });
    } else {
      if (a === BLANK) this.putField(b, p.field2);
      else this.putField(a, p.field1);
      this.putOtherFields(a, p.field1, this.autoCount[0] as number);
      this.putOtherFields(b, p.field2, this.autoCount[1] as number);
    }
    this.out.byte(p.eol);
  }

  private async tick(): Promise<void> {
    if (this.out.full) await this.out.flush();
    await this.ctx.cooperate();
  }

  async join(): Promise<number> {
    const p = this.plan;
    let l1 = await this.read(0);
    let l2 = await this.read(1);
    if (p.format === 'auto') this.autoCount = [l1?.starts.length ?? 0, l2?.starts.length ?? 0];
    if (p.header && (l1 !== undefined || l2 !== undefined)) {
      this.output(l1 ?? BLANK, l2 ?? BLANK);
      if (l1 !== undefined) l1 = await this.read(0);
      if (l2 !== undefined) l2 = await this.read(1);
    }
    while (l1 !== undefined && l2 !== undefined) {
      const diff = this.compare(l1, l2, p.field1, p.field2);
      if (diff < 0) {
        if (p.unpaired1) this.output(l1, BLANK);
        this.seenUnpairable = true;
        l1 = await this.read(0);
        await this.tick();
        continue;
      }
      if (diff > 0) {
        if (p.unpaired2) this.output(BLANK, l2);
        this.seenUnpairable = true;
        l2 = await this.read(1);
        await this.tick();
        continue;
      }
      // The runs of lines with this key in each file.
      const run1: JoinLine[] = [l1];
      let next1: JoinLine | undefined;
      for (;;) {
        next1 = await this.read(0);
        if (next1 === undefined || this.compare(next1, l2, p.field1, p.field2) !== 0) break;
        run1.push(next1);
      }
      const run2: JoinLine[] = [l2];
      let next2: JoinLine | undefined;
      for (;;) {
        next2 = await this.read(1);
        if (next2 === undefined || this.compare(l1, next2, p.field1, p.field2) !== 0) break;
        run2.push(next2);
      }
      if (p.paired) {
        for (const a of run1) {
          for (const b of run2) {
            this.output(a, b);
            await this.tick();
          }
        }
      }
      l1 = next1;
      l2 = next2;
      await this.tick();
    }
    const checkTail = p.check !== 'disabled' && !(this.warned[0] && this.warned[1]);
    if ((p.unpaired1 || checkTail) && l1 !== undefined) {
      if (p.unpaired1) this.output(l1, BLANK);
      if (l2 !== undefined) this.seenUnpairable = true;
      for (;;) {
        const l = await this.read(0);
        if (l === undefined) break;
        if (p.unpaired1) this.output(l, BLANK);
        if (this.warned[0] && !p.unpaired1) break;
        await this.tick();
      }
    }
    if ((p.unpaired2 || checkTail) && l2 !== undefined) {
      if (p.unpaired2) this.output(BLANK, l2);
      if (l1 !== undefined) this.seenUnpairable = true;
      for (;;) {
        const l = await this.read(1);
        if (l === undefined) break;
        if (p.unpaired2) this.output(BLANK, l);
        if (this.warned[1] && !p.unpaired2) break;
        await this.tick();
      }
    }
    return 0;
  }
}

export const joinCommand: CommandSpec = {
  name: 'join',
  summary: 'join lines of two files on a common field',
  help: helpText('join'),
  run: (ctx) => runCommand(ctx, () => join(ctx)),
};
