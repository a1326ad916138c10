/**
 * `shuf`: GNU coreutils 9.1, drawing random numbers exactly as GNU does (`randperm`, reservoir
 * sampling for `-n` over a stream), so `--random-source=FILE` gives GNU's output for the same
 * file. `--random-seed=TEXT` (berth's) gives a reproducible order without a file.
 * @module
 */
import type { VfsFileHandle } from '../../vfs/filesystem.js';
import { collectingWriter, readAll } from '../byte-io.js';
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, openInput, operandPath, regularFileSize } from './input.js';
import { parseCount } from './numbers.js';
import { TextOutput } from './output.js';
import {
  fileRandomBytes,
  type RandomBytes,
  RandomIntegers,
  RandomSourceExhausted,
  seededRandomBytes,
  systemRandomBytes,
} from './random-source.js';

const OPTIONS = [
  { short: 'e', long: 'echo' },
  { short: 'i', long: 'input-range', argument: 'required' },
  { short: 'n', long: 'head-count', argument: 'required' },
  { short: 'o', long: 'output', argument: 'required' },
  { long: 'random-source', argument: 'required' },
  { long: 'random-seed', argument: 'required' },
  { short: 'r', long: 'repeat' },
  { short: 'z', long: 'zero-terminated' },
] as const;

/** GNU reads inputs larger than this with reservoir sampling when `-n` is given. */
const RESERVOIR_MIN_INPUT = 8 * 1024 * 1024;
/** The most a shuffled input may hold. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

class ShufFailure extends Error {}

function splitLines(bytes: Uint8Array, eol: number): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (;;) {
    const at = bytes.indexOf(eol, start);
    if (at === -1) break;
    lines.push(bytes.subarray(start, at + 1));
    start = at + 1;
  }
  if (start < bytes.length) {
    const last = new Uint8Array(bytes.length - start + 1);
    last.set(bytes.subarray(start));
    last[last.length - 1] = eol;
    lines.push(last);
  }
  return lines;
}

async function shuf(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'shuf', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let echo = false;
  let range: { lo: bigint; hi: bigint } | undefined;
  let head = Number.POSITIVE_INFINITY;
  let output: string | undefined;
  let source: string | undefined;
  let seed: string | undefined;
  let repeat = false;
  let eol = 0x0a;
  for (const o of line.options) {
    const v = o.value as string;
    switch (o.key) {
      case 'echo':
        echo = true;
        break;
      case 'input-range': {
        if (range !== undefined) return usageError(ctx, 'shuf', 'multiple -i options specified');
        const m = /^(\d+)-(\d+)$/.exec(v);
        if (m === null || BigInt(m[2] as string) + 1n < BigInt(m[1] as string)) {
          await printError(ctx, `shuf: invalid input range: ${quoteValue(v)}\n`);
          return 1;
        }
        range = { lo: BigInt(m[1] as string), hi: BigInt(m[2] as string) };
        break;
      }
      case 'head-count': {
        const r = parseCount(v, '');
        if (r.kind !== 'ok') {
          await printError(ctx, `shuf: invalid line count: ${quoteValue(v)}\n`);
          return 1;
        }
        head = Math.min(
          head,
          r.value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(r.value),
        );
        break;
      }
      case 'output':
        if (output !== undefined && output !== v)
          return usageError(ctx, 'shuf', 'multiple output files specified');
        output = v;
        break;
      case 'random-source':
        if (source !== undefined && source !== v)
          return usageError(ctx, 'shuf', 'multiple random sources specified');
        source = v;
        break;
      case 'random-seed':
        seed = v;
        break;
      case 'repeat':
        repeat = true;
        break;
      case 'zero-terminated':
        eol = 0;
        break;
    }
  }
  if (echo && range !== undefined) return usageError(ctx, 'shuf', 'cannot combine -e and -i options');
  const ops = line.operands;
  if (range !== undefined && ops.length > 0)
    return usageError(ctx, 'shuf', `extra operand ${quoteValue(ops[0] as string)}`);
  if (!echo && range === undefined && ops.length > 1)
    return usageError(ctx, 'shuf', `extra operand ${quoteValue(ops[1] as string)}`);
  let random: RandomBytes;
  if (seed !== undefined) random = seededRandomBytes(seed);
  else if (source !== undefined) {
    let handle: VfsFileHandle;
    try {
      handle = await ctx.fs.open(operandPath(ctx, source), { read: true });
    } catch (error) {
      await printError(ctx, `shuf: ${quoteName(source)}: ${errorText(error)}\n`);
      return 1;
    }
    random = fileRandomBytes(handle, quoteName(source));
  } else random = systemRandomBytes();
  const ints = new RandomIntegers(random);
  // `-o` may name an input: the output is gathered and written once everything was read.
  const collected = output === undefined ? undefined : collectingWriter({ maxBytes: MAX_INPUT_BYTES * 2 });
  const out = new TextOutput(collected ?? ctx.stdout);
  try {
    let lines: Uint8Array[] | undefined;
    let count: number;
    let reservoir = false;
    if (head === 0) {
      await out.flush();
      return 0;
    }
    if (range !== undefined) count = Number(range.hi - range.lo + 1n);
    else if (echo) {
      lines = ops.map((a) => {
        const b = encodeText(a);
        const l = new Uint8Array(b.length + 1);
        l.set(b);
        l[b.length] = eol;
        return l;
      });
      count = lines.length;
    } else {
      const name = ops[0] ?? '-';
      const opened = await openInput(ctx, name);
      if (!opened.ok) throw new ShufFailure(`${quoteName(name)}: ${errorText(opened.error)}`);
      try {
        const size = await regularFileSize(opened.input);
        reservoir =
          !repeat && head !== Number.POSITIVE_INFINITY && (size === undefined || size > RESERVOIR_MIN_INPUT);
        if (reservoir) {
          lines = await sampleReservoir(opened.input.reader, eol, head, ints);
          count = Math.min(head, lines.length);
        } else {
          lines = splitLines(await readAll(opened.input.reader, MAX_INPUT_BYTES), eol);
          count = lines.length;
        }
      } catch (error) {
        if (error instanceof RandomSourceExhausted) throw error;
        if (error instanceof Error && error.name === 'InputTooLargeError')
          throw new ShufFailure(`${quoteName(name)}: ${error.message}`);
        if (error instanceof Error && error.name === 'VfsError')
          throw new ShufFailure(`read error: ${errorText(error)}`);
        throw error;
      } finally {
        await opened.input.close();
      }
    }
    const emit = (i: number): void => {
      if (range !== undefined) {
        out.text((range.lo + BigInt(i)).toString());
        out.byte(eol);
      } else out.put((lines as Uint8Array[])[i] as Uint8Array);
    };
    if (repeat) {
      if (count === 0) {
        if (head > 0) throw new ShufFailure('no lines to repeat');
      } else {
        for (let k = 0; k < head; k += 1) {
          emit(await ints.choose(count));
          if (out.full) {
            await out.flush();
            await ctx.cooperate();
          }
        }
      }
    } else {
      const h = Math.min(head, count);
      const order = await permutation(ints, h, count);
      for (const i of order) {
        emit(i);
        if (out.full) {
          await out.flush();
          await ctx.cooperate();
        }
      }
    }
    await out.flush();
    if (collected !== undefined) {
      try {
        await ctx.fs.writeFile(operandPath(ctx, output as string), collected.bytes());
      } catch (error) {
        throw new ShufFailure(`${quoteName(output as string)}: ${errorText(error)}`);
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof RandomSourceExhausted) {
      await printError(ctx, `shuf: ${error.message}\n`);
      return 1;
    }
    if (error instanceof ShufFailure) {
      await printError(ctx, `shuf: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await random.close();
    ctx.stdin.close();
  }
}

/** gnulib's `randperm_new`: the first `h` of a random permutation of `n`. */
async function permutation(ints: RandomIntegers, h: number, n: number): Promise<number[]> {
  if (h === 0) return [];
  if (h === 1) return [await ints.choose(n)];
  const sparse = new Map<number, number>();
  const get = (i: number): number => sparse.get(i) ?? i;
  const out: number[] = [];
  for (let i = 0; i < h; i += 1) {
    const j = i + (await ints.choose(n - i));
    const vi = get(i);
    const vj = get(j);
    sparse.set(i, vj);
    sparse.set(j, vi);
    out.push(vj);
  }
  return out;
}

/** GNU's reservoir sampling: the first `k` lines, then each later line replaces one with probability k/n. */
async function sampleReservoir(
  reader: { read(): Promise<Uint8Array | null> },
  eol: number,
  k: number,
  ints: RandomIntegers,
): Promise<Uint8Array[]> {
  const reservoir: Uint8Array[] = [];
  let pending: Uint8Array = new Uint8Array(0);
  let n = 0;
  const take = async (l: Uint8Array): Promise<void> => {
    if (n < k) reservoir.push(l);
    else {
      const j = await ints.choose(n + 1);
      if (j < k) reservoir[j] = l;
    }
    n += 1;
  };
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    const bytes = pending.length === 0 ? chunk : new Uint8Array(Buffer.concat([pending, chunk]));
    const lines = splitLines(bytes, eol);
    const last = lines[lines.length - 1];
    if (last !== undefined && bytes[bytes.length - 1] !== eol) {
      lines.pop();
      pending = bytes.subarray(bytes.length - (last.length - 1));
    } else pending = new Uint8Array(0);
    for (const l of lines) await take(l.slice());
  }
  if (pending.length > 0) await take(splitLines(pending, eol)[0] as Uint8Array);
  // GNU draws once more for the line it did not get at the end.
  if (n >= k && n > 0) await ints.choose(n + 1);
  return reservoir;
}

export const shufCommand: CommandSpec = {
  name: 'shuf',
  summary: 'generate random permutations',
  help: helpText('shuf'),
  run: (ctx) => runCommand(ctx, () => shuf(ctx)),
};
