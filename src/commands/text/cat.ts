/**
 * `cat`: GNU coreutils 9.1. Without options the input passes through chunk by chunk, untouched;
 * with them each byte goes through one state machine whose state (line start, blank-line run,
 * line number) carries across files, as GNU's does (a file without a final newline continues the
 * line into the next file).
 * @module
 */
import type { VfsError } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { helpText, parseCommandLine, runCommand } from './cli.js';
import { errorText, forEachInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

interface CatFlags {
  numberAll: boolean;
  numberNonblank: boolean;
  squeeze: boolean;
  showEnds: boolean;
  showTabs: boolean;
  showNonprinting: boolean;
}

interface CatState {
  atLineStart: boolean;
  /** Empty lines output in a row just now (for `-s`). */
  blankRun: number;
  lineNumber: number;
}

const OPTIONS = [
  { short: 'A', long: 'show-all' },
  { short: 'b', long: 'number-nonblank' },
  { short: 'e' },
  { short: 'E', long: 'show-ends' },
  { short: 'n', long: 'number' },
  { short: 's', long: 'squeeze-blank' },
  { short: 't' },
  { short: 'T', long: 'show-tabs' },
  { short: 'u' },
  { short: 'v', long: 'show-nonprinting' },
] as const;

async function cat(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'cat', { options: OPTIONS });
  if (typeof line === 'number') return line;
  const f: CatFlags = {
    numberAll: false,
    numberNonblank: false,
    squeeze: false,
    showEnds: false,
    showTabs: false,
    showNonprinting: false,
  };
  for (const o of line.options) {
    const k = o.key;
    if (k === 'show-all' || k === 'e' || k === 't') f.showNonprinting = true;
    if (k === 'show-all' || k === 'e' || k === 'show-ends') f.showEnds = true;
    if (k === 'show-all' || k === 't' || k === 'show-tabs') f.showTabs = true;
    if (k === 'show-nonprinting') f.showNonprinting = true;
    if (k === 'number') f.numberAll = true;
    if (k === 'number-nonblank') f.numberNonblank = true;
    if (k === 'squeeze-blank') f.squeeze = true;
  }
  if (f.numberNonblank) f.numberAll = false;
  const plain =
    !f.numberAll && !f.numberNonblank && !f.squeeze && !f.showEnds && !f.showTabs && !f.showNonprinting;
  const out = new TextOutput(ctx.stdout);
  const state: CatState = { atLineStart: true, blankRun: 0, lineNumber: 0 };
  // GNU prints the same words whether an operand fails to open or to read.
  const message = (operand: string, error: VfsError): string =>
    `cat: ${quoteName(operand)}: ${errorText(error)}\n`;
  const status = await forEachInput(
    ctx,
    line.operands,
    { open: message, read: message },
    () => out.flush(),
    async (input) => {
      const reader = flushingReader(input.reader, out);
      for (;;) {
        const chunk = await reader.read();
        if (chunk === null) break;
        if (plain) out.put(chunk);
        else transform(chunk, f, state, out);
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
    },
  );
  await out.flush();
  ctx.stdin.close();
  return status;
}

function transform(chunk: Uint8Array, f: CatFlags, s: CatState, out: TextOutput): void {
  for (let i = 0; i < chunk.length; i += 1) {
    const b = chunk[i] as number;
    if (s.atLineStart) {
      if (b === 0x0a) {
        if (f.squeeze && s.blankRun >= 1) continue;
        s.blankRun += 1;
        if (f.numberAll) number(s, out);
        if (f.showEnds) out.byte(0x24);
        out.byte(0x0a);
        continue;
      }
      s.blankRun = 0;
      if (f.numberAll || f.numberNonblank) number(s, out);
      s.atLineStart = false;
    }
    if (b === 0x0a) {
      if (f.showEnds) out.byte(0x24);
      out.byte(0x0a);
      s.atLineStart = true;
      continue;
    }
    if (b === 0x09) {
      if (f.showTabs) out.text('^I');
      else out.byte(b);
      continue;
    }
    if (f.showNonprinting) nonprinting(b, out);
    else out.byte(b);
  }
}

function number(s: CatState, out: TextOutput): void {
  s.lineNumber += 1;
  out.text(`${String(s.lineNumber).padStart(6, ' ')}\t`);
}

/** `-v`: `^X` for controls, `M-` for bytes with the high bit, `^?` for DEL. */
export function nonprinting(b: number, out: TextOutput): void {
  if (b >= 128) {
    out.text('M-');
    b -= 128;
  }
  if (b < 32) {
    out.byte(0x5e);
    out.byte(b + 64);
  } else if (b === 127) out.text('^?');
  else out.byte(b);
}

export const catCommand: CommandSpec = {
  name: 'cat',
  summary: 'concatenate files and print on the standard output',
  help: helpText('cat'),
  run: (ctx) => runCommand(ctx, () => cat(ctx)),
};
