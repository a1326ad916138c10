/**
 * `env`, `printenv` and `which` (GNU coreutils 9.1, debianutils' which). `env` runs its command
 * through the shell's dispatcher with the environment it built (`-i`, `-u`, `NAME=VALUE`, `-C`,
 * `-S`, `-0`, `-v`); `which` finds executables on `PATH` in the virtual filesystem, and answers
 * `/usr/bin/NAME` for a command the shell has built in or lets through its gate (the virtual
 * shell's commands are not files).
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { SYSTEM_HELP } from './gnu-help.js';
import { runThroughShell } from './run-command.js';

/** `-S`'s string split into words as GNU env splits it (quotes, backslashes, `${VAR}`). */
function splitString(text: string, env: ReadonlyMap<string, string>): string[] | string {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const push = (): void => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n') {
      push();
      i += 1;
      continue;
    }
    if (c === '#' && word === undefined) break;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return 'no terminating quote in -S string';
      word = (word ?? '') + text.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let part = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) {
          part += text[j + 1];
          j += 2;
          continue;
        }
        part += text[j];
        j += 1;
      }
      if (j >= text.length) return 'no terminating quote in -S string';
      word = (word ?? '') + part;
      i = j + 1;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      const d = text[i + 1] as string;
      const map: Readonly<Record<string, string>> = {
        n: '\n',
        t: '\t',
        r: '\r',
        f: '\f',
        v: '\v',
        '\\': '\\',
        '"': '"',
        "'": "'",
        '#': '#',
        $: '$',
        _: ' ',
      };
      if (d === 'c') break;
      if (map[d] === undefined) return `invalid sequence '\\${d}' in -S`;
      if (d === '_') push();
      else word = (word ?? '') + map[d];
      i += 2;
      continue;
    }
    if (c === '$' && text[i + 1] === '{') {
      const end = text.indexOf('}', i + 2);
      if (end === -1) return `only \${VARNAME} expansion is supported, error at: \${`;
      word = (word ?? '') + (env.get(text.slice(i + 2, end)) ?? '');
      i = end + 1;
      continue;
    }
    word = (word ?? '') + c;
    i += 1;
  }
  push();
  return words;
}

async function env(ctx: CommandContext): Promise<number> {
  const spec = {
    stopAtFirstOperand: true,
    options: [
      { short: 'a', long: 'argv0', argument: 'required' as const },
      { short: 'i', long: 'ignore-environment' },
      { short: '0', long: 'null' },
      { short: 'u', long: 'unset', argument: 'required' as const },
      { short: 'C', long: 'chdir', argument: 'required' as const },
      { short: 'S', long: 'split-string', argument: 'required' as const },
      { long: 'block-signal', argument: 'optional' as const },
      { long: 'default-signal', argument: 'optional' as const },
      { long: 'ignore-signal', argument: 'optional' as const },
      { long: 'list-signal-handling' },
      { short: 'v', long: 'debug' },
    ],
  };
  const line = await parseCommandLine(ctx, 'env', spec, { help: SYSTEM_HELP.env, usageStatus: 125 });
  if (typeof line === 'number') return line;
  let environment = new Map(ctx.env);
  let nul = false;
  let cwd: string | undefined;
  let debug = false;
  let cleaned = false;
  const operands = [...line.operands];
  for (const o of line.options) {
    switch (o.key) {
      case 'ignore-environment':
        environment = new Map();
        cleaned = true;
        break;
      case 'null':
        nul = true;
        break;
      case 'unset':
        if ((o.value ?? '').includes('=') || o.value === '') {
          await printError(ctx, `env: cannot unset ${quoteValue(o.value ?? '')}: Invalid argument\n`);
          return 125;
        }
        environment.delete(o.value as string);
        break;
      case 'chdir':
        cwd = o.value;
        break;
      case 'split-string': {
        const words = splitString(o.value ?? '', ctx.env);
        if (typeof words === 'string') {
          await printError(ctx, `env: ${words}\n`);
          return 125;
        }
        operands.unshift(...words);
        break;
      }
      case 'debug':
        debug = true;
        break;
    }
  }
  // A lone `-` is -i.
  if (operands[0] === '-') {
    environment = new Map();
    operands.shift();
  }
  while (operands.length > 0 && /^[^=]+=/.test(operands[0] as string)) {
    const a = operands.shift() as string;
    const eq = a.indexOf('=');
    environment.set(a.slice(0, eq), a.slice(eq + 1));
  }
  if (operands.length === 0) {
    if (cwd !== undefined) return usageError(ctx, 'env', 'must specify command with --chdir (-C)', 125);
    return runCommand(ctx, async () => {
      let out = '';
      for (const [k, v] of environment) out += `${k}=${v}${nul ? '\0' : '\n'}`;
      await ctx.stdout.write(encodeText(out));
      return 0;
    });
  }
  if (nul) return usageError(ctx, 'env', 'cannot specify --null (-0) with command', 125);
  let dir: string | undefined;
  if (cwd !== undefined) {
    dir = cwd.startsWith('/') ? cwd : `${ctx.cwd === '/' ? '' : ctx.cwd}/${cwd}`;
    const st = await ctx.fs.stat(dir).catch(() => undefined);
    if (st?.type !== 'directory') {
      await printError(
        ctx,
        `env: cannot change directory to ${quoteNameAlways(cwd)}: ${st === undefined ? 'No such file or directory' : 'Not a directory'}\n`,
      );
      return 125;
    }
  }
  if (debug) {
    if (cleaned) await printError(ctx, 'cleaning environ\n');
    await printError(
      ctx,
      `executing: ${operands[0]}\n${operands.map((a, k) => `   arg[${k}]= ${quoteValue(a)}\n`).join('')}`,
    );
  }
  return runCommand(ctx, () =>
    runThroughShell(
      ctx,
      operands,
      { env: environment, cwd: dir },
      (name) => `env: ${quoteValue(name)}: No such file or directory\n`,
    ),
  );
}

async function printenv(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'printenv',
    { options: [{ short: '0', long: 'null' }] },
    { help: SYSTEM_HELP.printenv, usageStatus: 2 },
  );
  if (typeof line === 'number') return line;
  const end = line.options.some((o) => o.key === 'null') ? '\0' : '\n';
  return runCommand(ctx, async () => {
    let out = '';
    let status = 0;
    if (line.operands.length === 0) {
      for (const [k, v] of ctx.env) out += `${k}=${v}${end}`;
    } else {
      for (const name of line.operands) {
        const v = name.includes('=') ? undefined : ctx.env.get(name);
        if (v === undefined) status = 1;
        else out += `${v}${end}`;
      }
    }
    await ctx.stdout.write(encodeText(out));
    return status;
  });
}

async function which(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1);
  let all = false;
  const names: string[] = [];
  for (const a of args) {
    if (a === '-a' && names.length === 0) {
      all = true;
      continue;
    }
    if (a.startsWith('-') && names.length === 0 && a !== '-') {
      // debianutils' which is a shell script over getopts: it names only the first option letter.
      await printError(ctx, `Illegal option -${a[1] ?? ''}\n`);
      await ctx.stdout.write(encodeText('Usage: /usr/bin/which [-a] args\n'));
      return 2;
    }
    names.push(a);
  }
  if (names.length === 0) return 1;
  return runCommand(ctx, async () => {
    let out = '';
    let missing = 0;
    const path = (ctx.env.get('PATH') ?? '').split(':');
    for (const name of names) {
      const found: string[] = [];
      if (name.includes('/')) {
        const abs = name.startsWith('/') ? name : `${ctx.cwd === '/' ? '' : ctx.cwd}/${name}`;
        const st = await ctx.fs.stat(abs).catch(() => undefined);
        if (st?.type === 'file' && (st.mode & 0o111) !== 0) found.push(name);
      } else {
        for (const dir of path) {
          const base = dir === '' ? '.' : dir;
          const abs = base.startsWith('/')
            ? `${base}/${name}`
            : `${ctx.cwd === '/' ? '' : ctx.cwd}/${base}/${name}`;
          const st = await ctx.fs.stat(abs).catch(() => undefined);
          if (st?.type === 'file' && (st.mode & 0o111) !== 0) {
            found.push(`${base}/${name}`);
            if (!all) break;
          }
        }
        const kind = ctx.dispatch.classify(name);
        if ((found.length === 0 || all) && (kind === 'command' || kind === 'external')) {
          const virtual = `/usr/bin/${name}`;
          if (!found.includes(virtual)) found.push(virtual);
        }
      }
      if (found.length === 0) missing += 1;
      for (const f of all ? found : found.slice(0, 1)) out += `${f}\n`;
    }
    await ctx.stdout.write(encodeText(out));
    return missing === 0 ? 0 : 1;
  });
}

export const envCommand: CommandSpec = {
  name: 'env',
  summary: 'run a program in a modified environment',
  help: SYSTEM_HELP.env as string,
  run: env,
};
export const printenvCommand: CommandSpec = {
  name: 'printenv',
  summary: 'print all or part of the environment',
  help: SYSTEM_HELP.printenv as string,
  run: printenv,
};
export const whichCommand: CommandSpec = {
  name: 'which',
  summary: 'locate a command',
  help: 'Usage: which [-a] args\n\nPrint the path of each command that would run for the given names: an executable on PATH\nin the virtual filesystem, or /usr/bin/NAME for a command the virtual shell provides.\n\n  -a   print all matches, not only the first\n',
  run: which,
};
