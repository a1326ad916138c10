/**
 * `fold`: GNU coreutils 9.1, which counts columns by bytes (a tab to the next multiple of 8,
 * backspace one back, carriage return to column 0; `-b` counts every byte as one). Streams:
 * only the current output line is held.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand } from './cli.js';
import { errorText, forEachInput } from './input.js';
import { countToNumber, rangedCount, UINTMAX_MAX } from './numbers.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'b', long: 'bytes' },
  { short: 's', long: 'spaces' },
  { short: 'w', long: 'width', argument: 'required' },
] as const;

const TAB_WIDTH = 8;

async function fold(ctx: CommandContext): Promise<number> {
  let argv = [...ctx.argv];
  // The obsolete `-NUM` is `-w NUM`.
  argv = argv.map((a, i) => (i > 0 && /^-\d+$/.test(a) ? `-w${a.slice(1)}` : a));
  const line = await parseCommandLine({ ...ctx, argv }, 'fold', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let width = 80;
  let countBytes = false;
  let breakSpaces = false;
  for (const o of line.options) {
    if (o.key === 'bytes') countBytes = true;
    else if (o.key === 'spaces') breakSpaces = true;
    else if (o.key === 'width') {
      const r = rangedCount(o.value as string, 1n, UINTMAX_MAX - 9n);
      if (!r.ok) {
        await printError(
          ctx,
          `fold: invalid number of columns: ${quoteValue(o.value as string)}${r.suffix}\n`,
        );
        return 1;
      }
      width = countToNumber(r.value);
    }
  }
  const out = new TextOutput(ctx.stdout);
  const folder = new Folder(width, countBytes, breakSpaces, out);
  const status = await forEachInput(
    ctx,
    line.operands,
    {
      open: (operand, error) => `fold: ${quoteName(operand)}: ${errorText(error)}\n`,
      read: (operand, error) => `fold: ${quoteName(operand)}: ${errorText(error)}\n`,
    },
    async () => {
      folder.end();
      await out.flush();
    },
    async (input) => {
      const reader = flushingReader(input.reader, out);
      for (;;) {
        const chunk = await reader.read();
        if (chunk === null) break;
        for (let i = 0; i < chunk.length; i += 1) folder.push(chunk[i] as number);
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
      folder.end();
    },
  );
  await out.flush();
  ctx.stdin.close();
  return status;
}

/** GNU's `fold_file` as a byte-at-a-time state machine. */
class Folder {
  private line: number[] = [];
  private column = 0;

  constructor(
    private readonly width: number,
    private readonly countBytes: boolean,
    private readonly breakSpaces: boolean,
    private readonly out: TextOutput,
  ) {}

  private adjust(column: number, c: number): number {
    if (this.countBytes) return column + 1;
    if (c === 0x08) return column > 0 ? column - 1 : 0;
    if (c === 0x0d) return 0;
    if (c === 0x09) return column + (TAB_WIDTH - (column % TAB_WIDTH));
    return column + 1;
  }

  private write(bytes: readonly number[]): void {
    this.out.put(Uint8Array.from(bytes));
  }

  push(c: number): void {
    if (c === 0x0a) {
      this.line.push(c);
      this.write(this.line);
      this.line = [];
      this.column = 0;
      return;
    }
    for (;;) {
      this.column = this.adjust(this.column, c);
      if (this.column <= this.width) break;
      if (this.breakSpaces) {
        let end = this.line.length;
        let found = false;
        while (end > 0) {
          end -= 1;
          const b = this.line[end] as number;
          if (b === 0x20 || b === 0x09) {
            found = true;
            break;
          }
        }
        if (found) {
          end += 1;
          this.write(this.line.slice(0, end));
          this.out.byte(0x0a);
          this.line = this.line.slice(end);
          this.column = 0;
          for (const b of this.line) this.column = this.adjust(this.column, b);
          continue;
        }
      }
      if (this.line.length === 0) break;
      this.line.push(0x0a);
      this.write(this.line);
      this.line = [];
      this.column = 0;
    }
    this.line.push(c);
  }

  /** The end of an input: what is left is written as it is (GNU keeps no state across files but the column). */
  end(): void {
    if (this.line.length > 0) this.write(this.line);
    this.line = [];
    this.column = 0;
  }
}

export const foldCommand: CommandSpec = {
  name: 'fold',
  summary: 'wrap each input line to fit in specified width',
  help: helpText('fold'),
  run: (ctx) => runCommand(ctx, () => fold(ctx)),
};
