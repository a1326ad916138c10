/**
 * What names are, and running them past functions: `type`, `command`, `builtin`, `hash`,
 * `enable`.
 * @module
 */
import { runBuiltin, runResolved } from '../exec/dispatch.js';
import { findInPath, KEYWORDS, type Resolved, resolveCommand } from '../exec/lookup.js';
import type { Shell } from '../runtime/shell.js';
import { printFunction } from '../syntax/print.js';
import { BUILTINS } from './registry.js';
import { complain, invalidOption, isOptionLike, print, usageLine } from './support.js';
import type { Builtin } from './types.js';

const quoteAlias = (v: string): string => `'${v.replace(/'/g, "'\\''")}'`;

interface Found {
  readonly kind: 'alias' | 'keyword' | 'function' | 'builtin' | 'file';
  readonly text: string;
  readonly path?: string;
  readonly hashed?: boolean;
}

/** Every meaning of `name`, in lookup order (aliases only when they expand). */
async function meanings(
  sh: Shell,
  name: string,
  options: { noFunctions?: boolean; all?: boolean; pathOnly?: boolean },
): Promise<Found[]> {
  const out: Found[] = [];
  const alias = sh.opts.s('expand_aliases') ? sh.aliases.get(name) : undefined;
  if (!options.pathOnly) {
    if (alias !== undefined) out.push({ kind: 'alias', text: `${name} is aliased to \`${alias.value}'` });
    if (KEYWORDS.has(name)) out.push({ kind: 'keyword', text: `${name} is a shell keyword` });
    const fn = options.noFunctions ? undefined : sh.functions.get(name);
    if (fn !== undefined)
      out.push({
        kind: 'function',
        text: `${name} is a function\n${printFunction(name, fn.definition.body)}`,
      });
    if (BUILTINS.has(name) && !sh.disabledBuiltins.has(name))
      out.push({ kind: 'builtin', text: `${name} is a shell builtin` });
  }
  if (!options.all && out.length > 0) return out;
  if (name.includes('/')) {
    const r = await resolveCommand(sh, name, [name], { noFunctions: true });
    if (r.kind === 'command' || r.kind === 'script')
      out.push({ kind: 'file', text: `${name} is ${name}`, path: name });
    return out;
  }
  const hashed = sh.hashed.get(name);
  if (hashed !== undefined && !options.all) {
    out.push({ kind: 'file', text: `${name} is hashed (${hashed})`, path: hashed, hashed: true });
    return out;
  }
  for (const path of await findInPath(sh, name, options.all === true)) {
    out.push({ kind: 'file', text: `${name} is ${path}`, path });
  }
  return out;
}

export const type: Builtin = {
  name: 'type',
  synopsis: 'type [-afptP] name [name ...]',
  help: 'Say how each NAME would be interpreted as a command: alias, keyword, function, builtin or file (-t: one word; -p: the path; -a: every meaning).',
  async run({ sh, argv }) {
    let flags = '';
    let i = 1;
    for (; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '--') {
        i += 1;
        break;
      }
      if (!/^-[afptP]+$/.test(a)) {
        if (a.startsWith('-') && a.length > 1) {
          await complain(sh, 'type', `${a.slice(0, 2)}: invalid option`);
          await usageLine(sh, 'type', 'type [-afptP] name [name ...]');
          return 2;
        }
        break;
      }
      flags += a.slice(1);
    }
    let status = 0;
    let out = '';
    for (const name of argv.slice(i)) {
      const list = await meanings(sh, name, {
        noFunctions: flags.includes('f'),
        all: flags.includes('a'),
        pathOnly: flags.includes('P'),
      });
      if (list.length === 0) {
        if (!flags.includes('t') && !flags.includes('p') && !flags.includes('P'))
          await complain(sh, 'type', `${name}: not found`);
        status = 1;
        continue;
      }
      for (const m of flags.includes('a') ? list : list.slice(0, 1)) {
        if (flags.includes('t')) out += `${m.kind}\n`;
        else if (flags.includes('p') || flags.includes('P')) {
          if (m.kind === 'file') out += `${m.path}\n`;
        } else out += `${m.text}\n`;
      }
    }
    await print(sh, out);
    return status;
  },
};

export const command: Builtin = {
  name: 'command',
  synopsis: 'command [-pVv] command [arg ...]',
  help: 'Run COMMAND with ARGS, ignoring shell functions (-p: with the default PATH); -v prints how it resolves, -V describes it.',
  async run({ sh, argv }) {
    let flags = '';
    let i = 1;
    for (; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '--') {
        i += 1;
        break;
      }
      if (!/^-[pVv]+$/.test(a)) {
        if (a.startsWith('-') && a.length > 1) {
          await complain(sh, 'command', `${a.slice(0, 2)}: invalid option`);
          await usageLine(sh, 'command', 'command [-pVv] command [arg ...]');
          return 2;
        }
        break;
      }
      flags += a.slice(1);
    }
    const rest = argv.slice(i);
    if (rest.length === 0) return 0;
    if (flags.includes('v') || flags.includes('V')) {
      // bash fails only when none of the names is found.
      let status = 1;
      let out = '';
      for (const name of rest) {
        const list = await meanings(sh, name, {});
        const m = list[0];
        if (m === undefined) {
          if (flags.includes('V')) await complain(sh, 'command', `${name}: not found`);
          continue;
        }
        status = 0;
        if (flags.includes('V')) out += `${m.text}\n`;
        else if (m.kind === 'alias')
          out += `alias ${name}=${quoteAlias(sh.aliases.get(name)?.value ?? '')}\n`;
        else if (m.kind === 'file') out += `${m.path}\n`;
        else out += `${name}\n`;
      }
      await print(sh, out);
      return status;
    }
    const name = rest[0] as string;
    const r: Resolved = await resolveCommand(sh, name, rest, {
      noFunctions: true,
      defaultPath: flags.includes('p'),
    });
    return runResolved(sh, r, rest);
  },
};

export const builtin: Builtin = {
  name: 'builtin',
  synopsis: 'builtin [shell-builtin [arg ...]]',
  help: 'Run the shell builtin NAME with ARGS, even when a function of that name exists.',
  async run({ sh, argv, decl, redirects }) {
    const usage = 'builtin [shell-builtin [arg ...]]';
    if (isOptionLike(argv[1])) return invalidOption(sh, 'builtin', argv[1], usage);
    const skip = argv[1] === '--' ? 1 : 0;
    const name = argv[1 + skip];
    if (name === undefined) return 0;
    const b = BUILTINS.get(name);
    if (b === undefined || sh.disabledBuiltins.has(name)) {
      await complain(sh, 'builtin', `${name}: not a shell builtin`);
      return 1;
    }
    return runBuiltin(sh, b, { sh, argv: argv.slice(1 + skip), decl: decl?.slice(1 + skip), redirects });
  },
};

export const hash: Builtin = {
  name: 'hash',
  synopsis: 'hash [-lr] [-p pathname] [-dt] [name ...]',
  help: 'Remember (or forget, -r/-d) where commands are; with no NAME, list what is remembered.',
  async run({ sh, argv }) {
    const args = argv.slice(1);
    if (args[0] === '-r') {
      sh.hashed.clear();
      return 0;
    }
    if (args[0] === '-p' && args.length >= 3) {
      sh.hashed.set(args[2] as string, args[1] as string);
      return 0;
    }
    const t = args[0] === '-t';
    const d = args[0] === '-d';
    const names = t || d || args[0] === '-l' ? args.slice(1) : args;
    if (names.length === 0) {
      if (sh.hashed.size === 0) {
        await print(sh, 'hash: hash table empty\n');
        return 0;
      }
      let out = 'hits\tcommand\n';
      for (const path of sh.hashed.values()) out += `   1\t${path}\n`;
      await print(sh, out);
      return 0;
    }
    let status = 0;
    let out = '';
    for (const name of names) {
      if (d) {
        if (!sh.hashed.delete(name)) {
          await complain(sh, 'hash', `${name}: not found`);
          status = 1;
        }
        continue;
      }
      if (BUILTINS.has(name) || sh.functions.get(name) !== undefined) continue;
      const r = await resolveCommand(sh, name, [name], { noFunctions: true });
      const path = sh.hashed.get(name);
      if ((r.kind !== 'command' && r.kind !== 'script') || path === undefined) {
        await complain(sh, 'hash', `${name}: not found`);
        status = 1;
        continue;
      }
      if (t) out += `${path}\n`;
    }
    await print(sh, out);
    return status;
  },
};

export const enable: Builtin = {
  name: 'enable',
  synopsis: 'enable [-a] [-dnps] [-f filename] [name ...]',
  help: 'Enable or (-n) disable shell builtins; with no NAME, list them.',
  async run({ sh, argv }) {
    const args = argv.slice(1);
    let disable = false;
    let all = false;
    const names: string[] = [];
    for (const a of args) {
      if (/^-[adnps]+$/.test(a)) {
        if (a.includes('n')) disable = true;
        if (a.includes('a')) all = true;
      } else names.push(a);
    }
    if (names.length === 0) {
      let out = '';
      for (const name of [...BUILTINS.keys()].sort()) {
        const off = sh.disabledBuiltins.has(name);
        if (disable && !off) continue;
        if (!disable && !all && off) continue;
        out += `enable ${off ? '-n ' : ''}${name}\n`;
      }
      await print(sh, out);
      return 0;
    }
    let status = 0;
    for (const name of names) {
      if (!BUILTINS.has(name)) {
        await complain(sh, 'enable', `${name}: not a shell builtin`);
        status = 1;
        continue;
      }
      if (disable) sh.disabledBuiltins.add(name);
      else sh.disabledBuiltins.delete(name);
    }
    return status;
  },
};
