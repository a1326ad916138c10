/**
 * `echo`, `true` and `false` as commands (GNU coreutils 9.1), for the commands that run commands
 * (`env`, `xargs`, `find -exec`) and for standalone use; inside a shell its builtins answer first.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { runCommand, versionText } from '../text/cli.js';
import { SYSTEM_HELP } from './gnu-help.js';

/** The bytes of `text` with echo's `-e` escapes (`\n \t \0NNN \xHH \c`); `stop` when `\c` ends the output. */
function escapes(text: string): { bytes: Uint8Array; stop: boolean } {
  const parts: Uint8Array[] = [];
  let run = '';
  const literal = (): void => {
    if (run !== '') parts.push(encodeText(run));
    run = '';
  };
  const byte = (b: number): void => {
    literal();
    parts.push(Uint8Array.of(b & 0xff));
  };
  const simple: Readonly<Record<string, number>> = {
    a: 7,
    b: 8,
    e: 27,
    f: 12,
    n: 10,
    r: 13,
    t: 9,
    v: 11,
    '\\': 92,
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    const d = text[i + 1];
    if (c !== '\\' || d === undefined) {
      run += c;
      continue;
    }
    if (d === 'c') {
      literal();
      return { bytes: Buffer.concat(parts), stop: true };
    }
    if (simple[d] !== undefined) {
      byte(simple[d] as number);
      i += 1;
      continue;
    }
    if (d === '0') {
      const m = /^[0-7]{0,3}/.exec(text.slice(i + 2))?.[0] ?? '';
      byte(Number.parseInt(m || '0', 8));
      i += 1 + m.length;
      continue;
    }
    if (d === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2))?.[0];
      if (m !== undefined) {
        byte(Number.parseInt(m, 16));
        i += 1 + m.length;
        continue;
      }
    }
    run += c;
  }
  literal();
  return { bytes: Buffer.concat(parts), stop: false };
}

async function echo(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1);
  if (args.length === 1 && args[0] === '--help') {
    await ctx.stdout.write(encodeText(SYSTEM_HELP.echo ?? ''));
    return 0;
  }
  if (args.length === 1 && args[0] === '--version') {
    await ctx.stdout.write(encodeText(versionText('echo', 'coreutils')));
    return 0;
  }
  let newline = true;
  let interpret = false;
  let i = 0;
  for (; i < args.length; i += 1) {
    const a = args[i] as string;
    if (!/^-[neE]+$/.test(a)) break;
    for (const f of a.slice(1)) {
      if (f === 'n') newline = false;
      else if (f === 'e') interpret = true;
      else interpret = false;
    }
  }
  return runCommand(ctx, async () => {
    const text = args.slice(i).join(' ');
    const r = interpret ? escapes(text) : { bytes: encodeText(text), stop: false };
    await ctx.stdout.write(r.stop || !newline ? r.bytes : Buffer.concat([r.bytes, Uint8Array.of(10)]));
    return 0;
  });
}

function constant(name: 'true' | 'false', status: number): CommandSpec {
  return {
    name,
    summary: name === 'true' ? 'do nothing, successfully' : 'do nothing, unsuccessfully',
    help: SYSTEM_HELP[name] as string,
    run: async (ctx) => {
      const args = ctx.argv.slice(1);
      if (args.length === 1 && (args[0] === '--help' || args[0] === '--version')) {
        await ctx.stdout.write(
          encodeText(args[0] === '--help' ? (SYSTEM_HELP[name] as string) : versionText(name, 'coreutils')),
        );
      }
      return status;
    },
  };
}

export const echoCommand: CommandSpec = {
  name: 'echo',
  summary: 'display a line of text',
  help: SYSTEM_HELP.echo as string,
  run: echo,
};
export const trueCommand = constant('true', 0);
export const falseCommand = constant('false', 1);
