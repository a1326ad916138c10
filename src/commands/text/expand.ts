/**
 * `expand` and `unexpand`: GNU coreutils 9.1, which count columns by bytes. The inputs are one
 * stream (a line may continue into the next file, as in GNU). Streams.
 * @module
 */
import type { ByteReader, CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand } from './cli.js';
import { errorText, isInputError, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';
import { TabStopError, TabStops } from './tab-stops.js';

const EXPAND_OPTIONS = [
  { short: 'i', long: 'initial' },
  { short: 't', long: 'tabs', argument: 'required' },
] as const;

const UNEXPAND_OPTIONS = [
  { short: 'a', long: 'all' },
  { long: 'first-only' },
  { short: 't', long: 'tabs', argument: 'required' },
] as const;

/** Bytes of every input in turn, with GNU's messages for those that fail. */
async function* inputBytes(
  ctx: CommandContext,
  name: string,
  operands: readonly string[],
  out: TextOutput,
  failed: { status: number },
): AsyncGenerator<Uint8Array> {
  for (const operand of operands.length === 0 ? ['-'] : operands) {
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(ctx, `${name}: ${quoteName(operand)}: ${errorText(opened.error)}\n`);
      failed.status = 1;
      continue;
    }
    const reader: ByteReader = flushingReader(opened.input.reader, out);
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk === null) break;
        yield chunk;
        await ctx.cooperate();
      }
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      await printError(ctx, `${name}: ${quoteName(operand)}: ${errorText(error)}\n`);
      failed.status = 1;
    } finally {
      await opened.input.close();
    }
  }
}

/** Parse the shared options; the obsolete `-N` / `-N,M` is a tab list. */
async function setup(
  ctx: CommandContext,
  name: 'expand' | 'unexpand',
): Promise<{ stops: TabStops; all: boolean; operands: readonly string[]; tabsGiven: boolean } | number> {
  const stops = new TabStops();
  const obsolete: string[] = [];
  const argv = ctx.argv.filter((a, i) => {
    if (i > 0 && /^-\d[\d,]*$/.test(a)) {
      obsolete.push(a.slice(1));
      return false;
    }
    return true;
  });
  const line = await parseCommandLine({ ...ctx, argv }, name, {
    options: name === 'expand' ? EXPAND_OPTIONS : UNEXPAND_OPTIONS,
  });
  if (typeof line === 'number') return line;
  let all = name === 'expand';
  let firstOnly = false;
  let tabsGiven = false;
  try {
    for (const t of obsolete) {
      stops.parse(t);
      tabsGiven = true;
    }
    for (const o of line.options) {
      if (o.key === 'initial') all = false;
      else if (o.key === 'all') all = true;
      else if (o.key === 'first-only') firstOnly = true;
      else if (o.key === 'tabs') {
        if (name === 'unexpand') all = true;
        stops.parse(o.value as string);
        tabsGiven = true;
      }
    }
    if (firstOnly) all = false;
    stops.finish();
  } catch (error) {
    if (!(error instanceof TabStopError)) throw error;
    await printError(
      ctx,
      error.message
        .split('\n')
        .map((m) => `${name}: ${m}\n`)
        .join(''),
    );
    return 1;
  }
  return { stops, all, operands: line.operands, tabsGiven };
}

class LineTooLong extends Error {}

async function expand(ctx: CommandContext): Promise<number> {
  const s = await setup(ctx, 'expand');
  if (typeof s === 'number') return s;
  const out = new TextOutput(ctx.stdout);
  const failed = { status: 0 };
  let column = 0;
  const state = { index: 0 };
  let convert = true;
  try {
    for await (const chunk of inputBytes(ctx, 'expand', s.operands, out, failed)) {
      for (let i = 0; i < chunk.length; i += 1) {
        let c = chunk[i] as number;
        if (convert) {
          if (c === 0x09) {
            let next = s.stops.next(column, state);
            if (next === undefined) next = column + 1;
            if (next > Number.MAX_SAFE_INTEGER) throw new LineTooLong();
            while (++column < next) out.byte(0x20);
            c = 0x20;
          } else if (c === 0x08) {
            if (column > 0) column -= 1;
            if (state.index > 0) state.index -= 1;
          } else column += 1;
          convert &&= s.all || c === 0x20 || c === 0x09;
        }
        out.byte(c);
        if (c === 0x0a) {
          column = 0;
          state.index = 0;
          convert = true;
        }
      }
      if (out.full) await out.flush();
    }
  } catch (error) {
    if (!(error instanceof LineTooLong)) throw error;
    await out.flush();
    await printError(ctx, 'expand: input line is too long\n');
    return 1;
  }
  await out.flush();
  ctx.stdin.close();
  return failed.status;
}

async function unexpand(ctx: CommandContext): Promise<number> {
  const s = await setup(ctx, 'unexpand');
  if (typeof s === 'number') return s;
  const out = new TextOutput(ctx.stdout);
  const failed = { status: 0 };
  const fresh = () => ({
    convert: true,
    column: 0,
    nextTab: 0,
    state: { index: 0 },
    oneBlankBeforeTabStop: false,
    prevBlank: true,
    pending: [] as number[],
  });
  let l = fresh();
  /** GNU's unexpand loop body for one byte (`c` -1 at the end of input). */
  const step = (input: number): void => {
    let c = input;
    if (l.convert) {
      const blank = c === 0x20 || c === 0x09;
      let skipRest = false;
      if (blank) {
        const next = s.stops.next(l.column, l.state);
        if (next === undefined) l.convert = false;
        else l.nextTab = next;
        if (l.convert) {
          if (c === 0x09) {
            l.column = l.nextTab;
            if (l.pending.length > 0) l.pending[0] = 0x09;
          } else {
            l.column += 1;
            if (!(l.prevBlank && l.column === l.nextTab)) {
              if (l.column === l.nextTab) l.oneBlankBeforeTabStop = true;
              l.pending.push(c);
              l.prevBlank = true;
              skipRest = true;
            } else {
              c = 0x09;
              if (l.pending.length > 0) l.pending[0] = 0x09;
            }
          }
          if (!skipRest) l.pending.length = l.oneBlankBeforeTabStop ? Math.min(1, l.pending.length) : 0;
        }
      } else if (c === 0x08) {
        if (l.column > 0) l.column -= 1;
        l.nextTab = l.column;
        if (l.state.index > 0) l.state.index -= 1;
      } else l.column += 1;
      if (skipRest) return;
      if (l.pending.length > 0) {
        if (l.pending.length > 1 && l.oneBlankBeforeTabStop) l.pending[0] = 0x09;
        out.put(Uint8Array.from(l.pending));
        l.pending = [];
        l.oneBlankBeforeTabStop = false;
      }
      l.prevBlank = blank;
      l.convert &&= s.all || blank;
    }
    if (c < 0) return;
    out.byte(c);
    if (c === 0x0a) l = fresh();
  };
  for await (const chunk of inputBytes(ctx, 'unexpand', s.operands, out, failed)) {
    for (let i = 0; i < chunk.length; i += 1) step(chunk[i] as number);
    if (out.full) await out.flush();
  }
  step(-1);
  await out.flush();
  ctx.stdin.close();
  return failed.status;
}

export const expandCommand: CommandSpec = {
  name: 'expand',
  summary: 'convert tabs to spaces',
  help: helpText('expand'),
  run: (ctx) => runCommand(ctx, () => expand(ctx)),
};

export const unexpandCommand: CommandSpec = {
  name: 'unexpand',
  summary: 'convert spaces to tabs',
  help: helpText('unexpand'),
  run: (ctx) => runCommand(ctx, () => unexpand(ctx)),
};
