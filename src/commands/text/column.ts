/**
 * `column` (util-linux 2.38): the list mode (entries in columns filled down, or across with `-x`,
 * padded with tabs to a width of `-c` or `$COLUMNS`, default 80) and the table mode (`-t`, cells
 * split at runs of blanks or at any `-s` character, `-o` between columns, `-N` names, `-e`).
 * Widths count display columns (wide characters two). Holds its input (it must see every row).
 * @module
 */
import { InputTooLargeError, readAll } from '../byte-io.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { codePointWidth } from './char-width.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, openInput } from './input.js';
import { TextOutput } from './output.js';

const OPTIONS = [
  { short: 't', long: 'table' },
  { short: 's', long: 'separator', argument: 'required' },
  { short: 'o', long: 'output-separator', argument: 'required' },
  { short: 'c', long: 'output-width', argument: 'required' },
  { short: 'x', long: 'fillrows' },
  { short: 'N', long: 'table-columns', argument: 'required' },
  { short: 'e', long: 'table-empty-lines' },
  { short: 'L', long: 'keep-empty-lines' },
  { short: 'h', long: 'help', key: 'help' },
  { short: 'V', long: 'version', key: 'version' },
] as const;

const MAX_INPUT_BYTES = 256 * 1024 * 1024;
const TAB = 8;

/** Display width of a string (unprintable characters count 0). */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cw = codePointWidth(ch.codePointAt(0) as number);
    if (cw > 0) w += cw;
  }
  return w;
}

async function column(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'column', { options: OPTIONS }, { upstream: 'util-linux' });
  if (typeof line === 'number') return line;
  let table = false;
  let separators: string | undefined;
  let outputSeparator = '  ';
  let width = Number(ctx.env.get('COLUMNS') ?? '') || 80;
  let fillRows = false;
  let names: string[] | undefined;
  let keepEmpty = false;
  for (const o of line.options) {
    const v = o.value as string;
    if (o.key === 'table') table = true;
    else if (o.key === 'separator') separators = v;
    else if (o.key === 'output-separator') outputSeparator = v;
    else if (o.key === 'output-width') {
      if (!/^\d+$/.test(v)) return usageError(ctx, 'column', `invalid columns argument: '${v}'`);
      width = Number(v);
    } else if (o.key === 'fillrows') fillRows = true;
    else if (o.key === 'table-columns') names = v.split(',');
    else if (o.key === 'table-empty-lines' || o.key === 'keep-empty-lines') keepEmpty = true;
  }
  const lines: string[] = [];
  let status = 0;
  for (const operand of line.operands.length === 0 ? ['-'] : line.operands) {
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await printError(ctx, `column: ${operand}: ${errorText(opened.error)}\n`);
      status = 1;
      continue;
    }
    try {
      const text = decodeBytes(await readAll(opened.input.reader, MAX_INPUT_BYTES));
      const split = text.split('\n');
      if (split[split.length - 1] === '') split.pop();
      lines.push(...split);
    } catch (error) {
      if (error instanceof InputTooLargeError) {
        await printError(ctx, `column: ${operand}: ${error.message}\n`);
        return 1;
      }
      await printError(ctx, `column: ${operand}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  const out = new TextOutput(ctx.stdout);
  if (table) writeTable(out, lines, separators, outputSeparator, names, keepEmpty);
  else
    writeList(
      out,
      lines.filter((l) => l !== ''),
      width,
      fillRows,
    );
  await out.flush();
  ctx.stdin.close();
  return status;
}

function writeTable(
  out: TextOutput,
  lines: readonly string[],
  separators: string | undefined,
  outputSeparator: string,
  names: readonly string[] | undefined,
  keepEmpty: boolean,
): void {
  const rows: string[][] = [];
  if (names !== undefined) rows.push([...names]);
  for (const l of lines) {
    if (l === '' && !keepEmpty) continue;
    if (separators === undefined)
      rows.push(l.split(/[ \t]+/).filter((c, i, all) => c !== '' || (i > 0 && i < all.length - 1)));
    else {
      const cells: string[] = [];
      let cell = '';
      for (const ch of l) {
        if (separators.includes(ch)) {
          cells.push(cell);
          cell = '';
        } else cell += ch;
      }
      cells.push(cell);
      rows.push(cells);
    }
  }
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = new Array<number>(columns).fill(0);
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] as number, displayWidth(c));
    });
  }
  for (const r of rows) {
    let text = '';
    for (let i = 0; i < columns; i += 1) {
      const cell = r[i] ?? '';
      if (i > 0) text += outputSeparator;
      text += cell;
      if (i < columns - 1) text += ' '.repeat((widths[i] as number) - displayWidth(cell));
    }
    out.put(encodeText(`${text}\n`));
  }
}

function writeList(out: TextOutput, entries: readonly string[], termWidth: number, fillRows: boolean): void {
  if (entries.length === 0) return;
  let max = 0;
  for (const e of entries) max = Math.max(max, displayWidth(e));
  max = (max + TAB) & ~(TAB - 1);
  if (max >= termWidth) {
    for (const e of entries) out.put(encodeText(`${e}\n`));
    return;
  }
  const numCols = Math.max(1, Math.floor(termWidth / max));
  const tabsTo = (count: number, end: number): { text: string; count: number } => {
    let text = '';
    let c = count;
    for (;;) {
      const next = (c + TAB) & ~(TAB - 1);
      if (next > end) break;
      text += '\t';
      c = next;
    }
    return { text, count: c };
  };
  let text = '';
  if (fillRows) {
    let count = 0;
    let col = 0;
    let end = max;
    entries.forEach((e, i) => {
      text += e;
      count += displayWidth(e);
      if (i + 1 === entries.length) return;
      col += 1;
      if (col === numCols) {
        count = 0;
        col = 0;
        end = max;
        text += '\n';
      } else {
        const t = tabsTo(count, end);
        text += t.text;
        count = t.count;
        end += max;
      }
    });
    text += '\n';
  } else {
    const numRows = Math.ceil(entries.length / numCols);
    for (let row = 0; row < numRows; row += 1) {
      let end = max;
      let count = 0;
      for (let base = row, col = 0; col < numCols; col += 1) {
        const e = entries[base] as string;
        text += e;
        count += displayWidth(e);
        base += numRows;
        if (base >= entries.length) break;
        const t = tabsTo(count, end);
        text += t.text;
        count = t.count;
        end += max;
      }
      text += '\n';
    }
  }
  out.put(encodeText(text));
}

export const columnCommand: CommandSpec = {
  name: 'column',
  summary: 'columnate lists',
  help: helpText('column'),
  run: (ctx) => runCommand(ctx, () => column(ctx)),
};
