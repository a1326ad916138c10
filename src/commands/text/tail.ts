/**
 * `tail`: GNU coreutils 9.1. A regular file is read from its end backwards (only the last N lines
 * or bytes are read); a stream keeps only the last N lines or bytes; `+N` skips and then streams.
 * `-f`/`-F` follow files of the virtual filesystem by polling (every `-s` seconds, default 1) until
 * the command is cancelled, reporting truncation, replacement and disappearance as GNU does.
 * @module
 */
import type { VfsFileHandle } from '../../vfs/filesystem.js';
import type { ByteReader, CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, type Input, isInputError, openInput, operandPath } from './input.js';
import { countErrorSuffix, countToNumber, parseCount, SIZE_SUFFIXES } from './numbers.js';
import { flushingReader, TextOutput } from './output.js';
import { sleepCancellable } from './sleep.js';

interface TailPlan {
  unit: 'lines' | 'bytes';
  count: number;
  /** `+N`: start at line/byte N instead of keeping the last N. */
  fromStart: boolean;
  delimiter: number;
  headers: 'auto' | 'always' | 'never';
  follow: 'none' | 'descriptor' | 'name';
  retry: boolean;
  sleepMs: number;
}

const DIGITS = '0123456789'.split('').map((d) => ({ short: d, key: 'digit' }));

const OPTIONS = [
  { short: 'c', long: 'bytes', argument: 'required' },
  { short: 'n', long: 'lines', argument: 'required' },
  { short: 'f', long: 'follow', argument: 'optional' },
  { short: 'F' },
  { long: 'max-unchanged-stats', argument: 'required' },
  { long: 'pid', argument: 'required' },
  { short: 'q', long: 'quiet' },
  { long: 'silent', key: 'quiet' },
  { long: 'retry' },
  { short: 's', long: 'sleep-interval', argument: 'required' },
  { short: 'v', long: 'verbose' },
  { short: 'z', long: 'zero-terminated' },
  { long: '-presume-input-pipe' },
  ...DIGITS,
] as const;

/** Read the obsolete `tail [-+]NUM[bcl][f] [FILE]` form into `plan`; false when the line is not in it. */
function obsoleteForm(argv: readonly string[], plan: TailPlan): boolean {
  const n = argv.length - 1;
  const secondIsOption = /^-./.test(argv[2] ?? '');
  if (!(n === 1 || (n === 2 && !secondIsOption))) return false;
  const m = /^([+-])(\d*)([bcl]?)(f?)$/.exec(argv[1] ?? '');
  if (m === null) return false;
  const [, sign, digits, unit, follow] = m as unknown as [string, string, string, string, string];
  if (sign === '-' && digits === '' && unit === '' && follow === '') return false; // `-` is stdin
  if (sign === '-' && digits === '' && unit === 'c' && follow === '') return false; // `-c` is the option
  let count = digits === '' ? 10n : BigInt(digits);
  if (unit === 'b') count *= 512n;
  plan.count = countToNumber(count);
  plan.unit = unit === 'b' || unit === 'c' ? 'bytes' : 'lines';
  plan.fromStart = sign === '+';
  if (follow === 'f') plan.follow = 'descriptor';
  return true;
}

async function tail(ctx: CommandContext): Promise<number> {
  const plan: TailPlan = {
    unit: 'lines',
    count: 10,
    fromStart: false,
    delimiter: 0x0a,
    headers: 'auto',
    follow: 'none',
    retry: false,
    sleepMs: 1000,
  };
  let argv = ctx.argv;
  if (obsoleteForm(argv, plan)) argv = [argv[0] as string, ...argv.slice(2)];
  const line = await parseCommandLine({ ...ctx, argv }, 'tail', { options: OPTIONS });
  if (typeof line === 'number') return line;
  for (const o of line.options) {
    switch (o.key) {
      case 'bytes':
      case 'lines': {
        let text = o.value as string;
        plan.unit = o.key;
        plan.fromStart = text.startsWith('+');
        if (text.startsWith('+') || text.startsWith('-')) text = text.slice(1);
        const parsed = parseCount(text, SIZE_SUFFIXES);
        if (parsed.kind !== 'ok') {
          await printError(
            ctx,
            `tail: invalid number of ${o.key}: ${quoteValue(o.value as string)}${countErrorSuffix(parsed)}\n`,
          );
          return 1;
        }
        plan.count = countToNumber(parsed.value);
        break;
      }
      case 'follow':
        if (o.value === undefined || (o.value !== '' && 'descriptor'.startsWith(o.value)))
          plan.follow = 'descriptor';
        else if (o.value !== '' && 'name'.startsWith(o.value)) plan.follow = 'name';
        else {
          await printError(
            ctx,
            `tail: invalid argument ${quoteValue(o.value)} for ‘--follow’\nValid arguments are:\n  - ‘descriptor’\n  - ‘name’\n`,
          );
          return usageError(ctx, 'tail', undefined);
        }
        break;
      case 'F':
        plan.follow = 'name';
        plan.retry = true;
        break;
      case 'retry':
        plan.retry = true;
        break;
      case 'quiet':
        plan.headers = 'never';
        break;
      case 'verbose':
        plan.headers = 'always';
        break;
      case 'zero-terminated':
        plan.delimiter = 0;
        break;
      case 'sleep-interval': {
        const seconds = Number(o.value);
        if (
          !/^\s*[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(o.value as string) ||
          !Number.isFinite(seconds)
        ) {
          await printError(ctx, `tail: invalid number of seconds: ${quoteValue(o.value as string)}\n`);
          return 1;
        }
        plan.sleepMs = seconds * 1000;
        break;
      }
      case 'max-unchanged-stats':
        break;
      case 'pid':
        await printError(
          ctx,
          'tail: --pid is not supported: commands of the virtual shell have no process ids (end tail -f with timeout, or cancel the command)\n',
        );
        return 1;
      case 'digit':
        await printError(ctx, `tail: option used in invalid context -- ${o.spelled.slice(1)}\n`);
        return 1;
    }
  }
  // `-n +0` is `-n +1`.
  if (plan.fromStart && plan.count === 0) plan.count = 1;
  const operands = line.operands.length === 0 ? ['-'] : line.operands;
  if (plan.retry && plan.follow === 'none')
    await printError(ctx, 'tail: warning: --retry ignored; --retry is useful only when following\n');
  const showHeaders = plan.headers === 'always' || (plan.headers === 'auto' && operands.length > 1);
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  let first = true;
  let readStdin = false;
  const followed: Followed[] = [];
  for (const operand of operands) {
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(
        ctx,
        `tail: cannot open ${quoteNameAlways(operand)} for reading: ${errorText(opened.error)}\n`,
      );
      status = 1;
      if (plan.follow === 'name' && plan.retry)
        followed.push({ name: operand, handle: undefined, position: 0, ino: -1 });
      continue;
    }
    const input = opened.input;
    if (input.isStdin) readStdin = true;
    if (showHeaders) out.text(`${first ? '' : '\n'}==> ${input.isStdin ? 'standard input' : operand} <==\n`);
    first = false;
    let keepOpen = false;
    try {
      await copyTail(ctx, input, plan, out);
      if (plan.follow !== 'none' && input.handle !== undefined) {
        const st = await input.handle.stat();
        followed.push({ name: operand, handle: input.handle, position: st.size, ino: st.ino });
        keepOpen = true;
      }
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      await printError(ctx, `tail: error reading ${quoteNameAlways(operand)}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      if (!keepOpen) await input.close();
    }
  }
  await out.flush();
  if (readStdin) ctx.stdin.close();
  if (plan.follow !== 'none' && !readStdin) {
    if (followed.length === 0) {
      await printError(ctx, 'tail: no files remaining\n');
      return 1;
    }
    await follow(ctx, plan, followed, out, showHeaders);
  }
  return status;
}

async function copyTail(ctx: CommandContext, input: Input, plan: TailPlan, out: TextOutput): Promise<void> {
  const reader = flushingReader(input.reader, out);
  if (plan.fromStart) {
    await skipThenCopy(ctx, reader, plan, out);
    return;
  }
  if (plan.count === 0) return;
  const handle = input.handle;
  if (handle !== undefined) {
    const st = await handle.stat();
    if (st.type === 'file') {
      const start =
        plan.unit === 'bytes'
          ? Math.max(0, st.size - plan.count)
          : await startOfLastLines(handle, st.size, plan);
      await copyRange(ctx, handle, start, st.size, out);
      return;
    }
  }
  if (plan.unit === 'bytes') await lastBytesOfStream(ctx, reader, plan.count, out);
  else await lastLinesOfStream(ctx, reader, plan, out);
}

/** `+N`: drop the first N - 1 lines or bytes, copy the rest as it comes. */
async function skipThenCopy(
  ctx: CommandContext,
  reader: ByteReader,
  plan: TailPlan,
  out: TextOutput,
): Promise<void> {
  let skip = plan.count - 1;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) return;
    let at = 0;
    if (skip > 0) {
      if (plan.unit === 'bytes') {
        at = Math.min(skip, chunk.length);
        skip -= at;
      } else {
        while (skip > 0) {
          const nl = chunk.indexOf(plan.delimiter, at);
          if (nl === -1) {
            at = chunk.length;
            break;
          }
          at = nl + 1;
          skip -= 1;
        }
      }
    }
    if (at < chunk.length) out.put(at === 0 ? chunk : chunk.subarray(at));
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
}

const BACKWARD_BLOCK = 64 * 1024;

/** Where the last `plan.count` lines of a file of `size` bytes start, reading backwards. */
async function startOfLastLines(handle: VfsFileHandle, size: number, plan: TailPlan): Promise<number> {
  if (size === 0) return 0;
  let end = size;
  let wanted = plan.count;
  const last = await handle.read(1, size - 1);
  // A final delimiter ends the last line; it is not the start of another.
  if (last[0] === plan.delimiter) end = size - 1;
  while (end > 0) {
    const from = Math.max(0, end - BACKWARD_BLOCK);
    const block = await handle.read(end - from, from);
    for (let i = block.length - 1; i >= 0; i -= 1) {
      if (block[i] === plan.delimiter) {
        wanted -= 1;
        if (wanted === 0) return from + i + 1;
      }
    }
    end = from;
  }
  return 0;
}

async function copyRange(
  ctx: CommandContext,
  handle: VfsFileHandle,
  start: number,
  end: number,
  out: TextOutput,
): Promise<void> {
  let at = start;
  while (at < end) {
    const chunk = await handle.read(Math.min(128 * 1024, end - at), at);
    if (chunk.length === 0) break;
    at += chunk.length;
    out.put(chunk);
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
}

/** The last `n` bytes of a stream: a window of chunks trimmed to `n` bytes. */
async function lastBytesOfStream(
  ctx: CommandContext,
  reader: ByteReader,
  n: number,
  out: TextOutput,
): Promise<void> {
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    held.push(chunk);
    heldBytes += chunk.length;
    while (held.length > 1 && heldBytes - (held[0] as Uint8Array).length >= n)
      heldBytes -= (held.shift() as Uint8Array).length;
    await ctx.cooperate();
  }
  let skip = Math.max(0, heldBytes - n);
  for (const c of held) {
    if (skip >= c.length) {
      skip -= c.length;
      continue;
    }
    out.put(c.subarray(skip));
    skip = 0;
  }
}

/**
 * The last `n` lines of a stream: the ends of the last n + 1 lines are remembered and only the
 * bytes after the oldest of them are held.
 */
async function lastLinesOfStream(
  ctx: CommandContext,
  reader: ByteReader,
  plan: TailPlan,
  out: TextOutput,
): Promise<void> {
  const n = plan.count;
  const ends: number[] = [];
  let endsStart = 0;
  const held: Uint8Array[] = [];
  let heldStart = 0;
  let total = 0;
  let lastEnd = 0;
  const dropBefore = (offset: number): void => {
    while (held.length > 0 && heldStart + (held[0] as Uint8Array).length <= offset)
      heldStart += (held.shift() as Uint8Array).length;
  };
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    held.push(chunk);
    let at = chunk.indexOf(plan.delimiter);
    while (at !== -1) {
      lastEnd = total + at + 1;
      ends.push(lastEnd);
      at = chunk.indexOf(plan.delimiter, at + 1);
    }
    total += chunk.length;
    // Keep n + 1 ends: the oldest is where the window starts.
    if (ends.length - endsStart > n + 1) {
      endsStart = ends.length - (n + 1);
      if (endsStart > 4096) {
        ends.splice(0, endsStart);
        endsStart = 0;
      }
    }
    if (ends.length - endsStart === n + 1) dropBefore(ends[endsStart] as number);
    await ctx.cooperate();
  }
  if (total > lastEnd) ends.push(total);
  const count = ends.length - endsStart;
  const start = count > n ? (ends[ends.length - n - 1] as number) : 0;
  let skip = start - heldStart;
  for (const c of held) {
    if (skip >= c.length) {
      skip -= c.length;
      continue;
    }
    out.put(skip > 0 ? c.subarray(skip) : c);
    skip = 0;
  }
}

interface Followed {
  readonly name: string;
  handle: VfsFileHandle | undefined;
  position: number;
  ino: number;
}

/** `-f` / `-F`: poll each file and print what was added, until cancelled. */
async function follow(
  ctx: CommandContext,
  plan: TailPlan,
  files: Followed[],
  out: TextOutput,
  showHeaders: boolean,
): Promise<void> {
  let lastShown: Followed | undefined = files[files.length - 1];
  for (;;) {
    if (!(await sleepCancellable(plan.sleepMs, ctx.signal))) return;
    for (const f of files) {
      if (plan.follow === 'name') await reopenIfReplaced(ctx, f, plan);
      if (f.handle === undefined) continue;
      let st: Awaited<ReturnType<VfsFileHandle['stat']>>;
      try {
        st = await f.handle.stat();
      } catch {
        continue;
      }
      if (st.size < f.position) {
        await out.flush();
        await printError(ctx, `tail: ${f.name}: file truncated\n`);
        f.position = 0;
      }
      if (st.size > f.position) {
        if (showHeaders && lastShown !== f) out.text(`\n==> ${f.name} <==\n`);
        lastShown = f;
        await copyRange(ctx, f.handle, f.position, st.size, out);
        f.position = st.size;
        await out.flush();
      }
    }
  }
}

/** `--follow=name`: notice a file that appeared, was replaced or went away. */
async function reopenIfReplaced(ctx: CommandContext, f: Followed, plan: TailPlan): Promise<void> {
  const path = operandPath(ctx, f.name);
  let ino: number;
  try {
    ino = (await ctx.fs.stat(path)).ino;
  } catch (error) {
    if (f.handle !== undefined) {
      await printError(
        ctx,
        `tail: ${quoteNameAlways(f.name)} has become inaccessible: ${errorText(error)}\n`,
      );
      await f.handle.close();
      f.handle = undefined;
      f.ino = -1;
    }
    return;
  }
  if (ino === f.ino && f.handle !== undefined) return;
  if (!plan.retry && f.handle === undefined) return;
  const appeared = f.handle === undefined;
  await f.handle?.close();
  try {
    f.handle = await ctx.fs.open(path, { read: true });
  } catch {
    f.handle = undefined;
    return;
  }
  f.ino = ino;
  f.position = 0;
  await printError(
    ctx,
    `tail: ${quoteNameAlways(f.name)} ${appeared ? 'has appeared' : 'has been replaced'};  following new file\n`,
  );
}

export const tailCommand: CommandSpec = {
  name: 'tail',
  summary: 'output the last part of files',
  help: helpText('tail'),
  run: (ctx) => runCommand(ctx, () => tail(ctx)),
};
