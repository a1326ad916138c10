/**
 * Programmable completion: `complete` (specs per command name), `compgen` (what a spec would
 * offer for a word: functions, builtins, variables, files, keywords, options, `-W` word lists,
 * `-F` functions, `-C` commands, filtered by `-X`, with `-P`/`-S`), and `compopt`.
 * @module
 */

import { callFunction } from '../exec/dispatch.js';
import { KEYWORDS } from '../exec/lookup.js';
import { runSource, SyntaxAbort } from '../exec/source-loop.js';
import { commandSubstitution } from '../exec/substitution.js';
import { expandToString } from '../expand/expand.js';
import { compareBytes, expandPathname } from '../expand/pathname.js';
import { Pattern } from '../expand/pattern.js';
import { DiscardControl } from '../runtime/control.js';
import { SET_OPTIONS, SHOPT_OPTIONS } from '../runtime/options.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { arrayValues, assignArray, exportedEnv, getVar, lookup, setVar, unsetVar } from '../runtime/vars.js';
import { IndexedArray } from '../state/arrays.js';
import { ATTR_EXPORT } from '../state/variables.js';
import { Parser } from '../syntax/parser.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import { parseHereDocBody } from '../syntax/word-parser.js';
import { BUILTINS } from './registry.js';
import { complain, print, usageLine } from './support.js';
import { signalList } from './trap.js';
import type { Builtin } from './types.js';

/** One completion specification. */
export interface CompSpec {
  readonly actions: readonly string[];
  readonly options: readonly string[];
  readonly wordlist?: string | undefined;
  readonly func?: string | undefined;
  readonly command?: string | undefined;
  readonly glob?: string | undefined;
  readonly filter?: string | undefined;
  readonly prefix?: string | undefined;
  readonly suffix?: string | undefined;
}

const ACTION_LETTERS: Readonly<Record<string, string>> = {
  a: 'alias',
  b: 'builtin',
  c: 'command',
  d: 'directory',
  e: 'export',
  f: 'file',
  g: 'group',
  j: 'job',
  k: 'keyword',
  s: 'service',
  u: 'user',
  v: 'variable',
};

const ACTIONS = new Set([
  'alias',
  'arrayvar',
  'binding',
  'builtin',
  'command',
  'directory',
  'disabled',
  'enabled',
  'export',
  'file',
  'function',
  'group',
  'helptopic',
  'hostname',
  'job',
  'keyword',
  'running',
  'service',
  'setopt',
  'shopt',
  'signal',
  'stopped',
  'user',
  'variable',
]);

const COMP_OPTIONS = new Set([
  'bashdefault',
  'default',
  'dirnames',
  'filenames',
  'noquote',
  'nosort',
  'nospace',
  'plusdirs',
]);

const COMPGEN_USAGE =
  'compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]';
const COMPLETE_USAGE =
  'complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]';

interface Parsed {
  spec: CompSpec;
  flags: Set<string>;
  rest: string[];
}

class UsageError extends Error {}

async function parseSpec(sh: Shell, name: string, args: readonly string[]): Promise<Parsed | number> {
  const actions: string[] = [];
  const options: string[] = [];
  const flags = new Set<string>();
  const spec: { [k: string]: string | undefined } = {};
  let i = 0;
  const take = (letter: string): string => {
    const v = args[i + 1];
    if (v === undefined) throw new UsageError(`-${letter}: option requires an argument`);
    i += 1;
    return v;
  };
  try {
    for (; i < args.length; i += 1) {
      const a = args[i] as string;
      if (a === '--') {
        i += 1;
        break;
      }
      if (!/^[-+]./.test(a)) break;
      for (let j = 1; j < a.length; j += 1) {
        const c = a[j] as string;
        const rest = a.slice(j + 1);
        const value = (): string => {
          if (rest !== '') {
            j = a.length;
            return rest;
          }
          j = a.length;
          return take(c);
        };
        if (ACTION_LETTERS[c] !== undefined) actions.push(ACTION_LETTERS[c] as string);
        else if (c === 'A') {
          const v = value();
          if (!ACTIONS.has(v)) {
            await complain(sh, name, `${v}: invalid action name`);
            return 2;
          }
          actions.push(v);
        } else if (c === 'o') {
          const v = value();
          if (!COMP_OPTIONS.has(v)) {
            await complain(sh, name, `${v}: invalid option name`);
            return 2;
          }
          options.push(v);
        } else if (c === 'W') spec.wordlist = value();
        else if (c === 'F') spec.func = value();
        else if (c === 'C') spec.command = value();
        else if (c === 'G') spec.glob = value();
        else if (c === 'X') spec.filter = value();
        else if (c === 'P') spec.prefix = value();
        else if (c === 'S') spec.suffix = value();
        else if ('prDEI'.includes(c)) flags.add(c);
        else {
          await complain(sh, name, `-${c}: invalid option`);
          await usageLine(sh, name, name === 'compgen' ? COMPGEN_USAGE : COMPLETE_USAGE);
          return 2;
        }
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      await complain(sh, name, error.message);
      await usageLine(sh, name, name === 'compgen' ? COMPGEN_USAGE : COMPLETE_USAGE);
      return 2;
    }
    throw error;
  }
  return { spec: { actions, options, ...spec }, flags, rest: args.slice(i) };
}

const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

/** A spec as `complete -p` prints it. */
function specLine(name: string, spec: CompSpec): string {
  const parts = ['complete'];
  for (const o of spec.options) parts.push('-o', o);
  const letters = Object.entries(ACTION_LETTERS);
  for (const a of spec.actions) {
    const letter = letters.find(([, v]) => v === a)?.[0];
    parts.push(letter !== undefined ? `-${letter}` : `-A ${a}`);
  }
  if (spec.glob !== undefined) parts.push('-G', quote(spec.glob));
  if (spec.wordlist !== undefined) parts.push('-W', quote(spec.wordlist));
  if (spec.func !== undefined) parts.push('-F', spec.func);
  if (spec.command !== undefined) parts.push('-C', quote(spec.command));
  if (spec.filter !== undefined) parts.push('-X', quote(spec.filter));
  if (spec.prefix !== undefined) parts.push('-P', quote(spec.prefix));
  if (spec.suffix !== undefined) parts.push('-S', quote(spec.suffix));
  parts.push(name);
  return parts.join(' ');
}

export const complete: Builtin = {
  name: 'complete',
  synopsis: COMPLETE_USAGE,
  help: 'Define (or with -p print, -r remove) how arguments of the NAMEd commands are completed.',
  async run({ sh, argv }) {
    const parsed = await parseSpec(sh, 'complete', argv.slice(1));
    if (typeof parsed === 'number') return parsed;
    const { spec, flags, rest } = parsed;
    const names = [
      ...rest,
      ...(flags.has('D') ? ['-D'] : []),
      ...(flags.has('E') ? ['-E'] : []),
      ...(flags.has('I') ? ['-I'] : []),
    ];
    const hasSpec = spec.actions.length > 0 || spec.options.length > 0 || Object.keys(spec).length > 2;
    if (flags.has('r')) {
      if (names.length === 0) sh.completions.clear();
      for (const n of names) sh.completions.delete(n);
      return 0;
    }
    if (flags.has('p') || (names.length === 0 && !hasSpec)) {
      let out = '';
      const list = names.length === 0 ? [...sh.completions.keys()] : names;
      for (const n of list) {
        const s = sh.completions.get(n);
        if (s === undefined) {
          await complain(sh, 'complete', `${n}: no completion specification`);
          continue;
        }
        out += `${specLine(n, s)}\n`;
      }
      await print(sh, out);
      return 0;
    }
    if (names.length === 0) {
      await usageLine(sh, 'complete', COMPLETE_USAGE);
      return 2;
    }
    for (const n of names) sh.completions.set(n, spec);
    return 0;
  },
};

export const compopt: Builtin = {
  name: 'compopt',
  synopsis: 'compopt [-o|+o option] [-DEI] [name ...]',
  help: 'Change the options of the completion being done (or of the NAMEd commands).',
  async run({ sh, argv }) {
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i += 1) {
      const a = args[i] as string;
      if (a === '-o' || a === '+o') {
        const v = args[i + 1];
        i += 1;
        if (v === undefined || !COMP_OPTIONS.has(v)) {
          await complain(sh, 'compopt', `${v ?? ''}: invalid option name`);
          return 2;
        }
      }
    }
    const named = args.filter(
      (a, i) => !a.startsWith('-') && !a.startsWith('+') && args[i - 1] !== '-o' && args[i - 1] !== '+o',
    );
    if (named.length === 0) {
      await complain(sh, 'compopt', 'not currently executing completion function');
      return 1;
    }
    return 0;
  },
};

export const compgen: Builtin = {
  name: 'compgen',
  synopsis: COMPGEN_USAGE,
  help: 'Print the completions of WORD that the given actions and options produce.',
  async run({ sh, argv }) {
    const parsed = await parseSpec(sh, 'compgen', argv.slice(1));
    if (typeof parsed === 'number') return parsed;
    const word = parsed.rest[0] ?? '';
    let matches: string[];
    try {
      matches = await generate(sh, parsed.spec, word);
    } catch (error) {
      if (
        error instanceof DiscardControl ||
        error instanceof SyntaxAbort ||
        error instanceof ShellSyntaxError
      )
        return 1;
      throw error;
    }
    if (matches.length === 0) return 1;
    await print(sh, matches.map((m) => `${m}\n`).join(''));
    return 0;
  },
};

async function generate(sh: Shell, spec: CompSpec, word: string): Promise<string[]> {
  let out: string[] = [];
  const starts = (s: string): boolean => s.startsWith(word);
  for (const action of spec.actions) out.push(...(await actionMatches(sh, action, word)).filter(starts));
  if (spec.options.includes('bashdefault')) out.push(...(await files(sh, word, false)));
  if (spec.glob !== undefined) {
    out.push(...(await expandPathname(sh.rt.fs, sh.cwd, spec.glob, globOptions(sh), sh.rt.cooperate)));
  }
  if (spec.wordlist !== undefined) out.push(...(await wordlist(sh, spec.wordlist)).filter(starts));
  if (spec.func !== undefined) out.push(...(await runCompletionFunction(sh, spec.func, word)));
  if (spec.command !== undefined) {
    const text = await runCompletionCommand(sh, spec.command, word);
    out.push(...text.split('\n').filter((l) => l !== ''));
  }
  if (spec.filter !== undefined) {
    let filter = spec.filter;
    const negate = filter.startsWith('!');
    if (negate) filter = filter.slice(1);
    const p = Pattern.compile(filter.replace(/&/g, word), { extglob: sh.opts.s('extglob') });
    out = out.filter((m) => (negate ? p.matches(m) : !p.matches(m)));
  }
  out = out.map((m) => `${spec.prefix ?? ''}${m}${spec.suffix ?? ''}`);
  // `-o default` and `-o dirnames` complete file and directory names only when the spec made no
  // match; `-o plusdirs` adds directory names to what it made.
  if (out.length === 0 && spec.options.includes('default')) out = await files(sh, word, false);
  if (out.length === 0 && spec.options.includes('dirnames')) out = await files(sh, word, true);
  if (spec.options.includes('plusdirs')) out.push(...(await files(sh, word, true)));
  return out;
}

function globOptions(sh: Shell) {
  return {
    dotglob: sh.opts.s('dotglob'),
    extglob: sh.opts.s('extglob'),
    globstar: false,
    nocaseglob: sh.opts.s('nocaseglob'),
    globskipdots: true,
    ignore: [],
  };
}

async function actionMatches(sh: Shell, action: string, word: string): Promise<string[]> {
  const sorted = (list: Iterable<string>): string[] => [...new Set(list)].sort(compareBytes);
  switch (action) {
    case 'alias':
      return sorted(sh.aliases.keys());
    case 'builtin':
    case 'enabled':
      return sorted([...BUILTINS.keys()].filter((n) => !sh.disabledBuiltins.has(n)));
    case 'disabled':
      return sorted(sh.disabledBuiltins);
    case 'helptopic':
      return sorted(BUILTINS.keys());
    case 'keyword':
      return sorted([...KEYWORDS].filter((k) => k !== 'coproc' || true));
    case 'function':
      return sorted(sh.functions.keys());
    case 'variable':
      return sorted(sh.vars.names().filter((n) => lookup(sh, n)?.variable.value !== undefined));
    case 'arrayvar':
      return sorted(sh.vars.names().filter((n) => lookup(sh, n)?.variable.value instanceof IndexedArray));
    case 'export':
      return sorted(
        sh.vars
          .names()
          .filter((n) => (sh.vars.find(n)?.variable.attrs ?? 0) & ATTR_EXPORT && exportedEnv(sh).has(n)),
      );
    case 'setopt':
      return sorted(SET_OPTIONS.map((o) => o[0]).filter((n) => n !== 'trash'));
    case 'shopt':
      return sorted(SHOPT_OPTIONS.map((o) => o[0]));
    case 'signal':
      return signalList()
        .split(/[\t\n]/)
        .map((s) => s.trim().replace(/^[0-9]+\) /, ''))
        .filter((s) => s !== '');
    case 'job':
    case 'running':
      return sh.jobs.all().map((j) => j.command.split(' ')[0] as string);
    case 'stopped':
      return [];
    case 'user':
      return sorted([sh.rt.identity.user, 'root']);
    case 'group':
      return sorted([sh.rt.identity.user, 'root']);
    case 'hostname':
      return [sh.rt.identity.hostname];
    case 'service':
    case 'binding':
      return [];
    case 'file':
      return files(sh, word, false);
    case 'directory':
      return files(sh, word, true);
    case 'command': {
      const names = new Set<string>([
        ...sh.aliases.keys(),
        ...BUILTINS.keys(),
        ...sh.functions.keys(),
        ...KEYWORDS,
      ]);
      for (const dir of (getVar(sh, 'PATH') ?? '').split(':')) {
        try {
          for (const e of await sh.rt.fs.readdir(resolvePath(sh.cwd, dir || '.'))) names.add(e.name);
        } catch {
          // no such directory
        }
        for (const c of sh.rt.commands.values())
          if (c.paths.some((p) => p.startsWith(`${dir}/`))) names.add(c.spec.name);
      }
      return sorted(names);
    }
    default:
      return [];
  }
}

/** Files (or directories) whose names start with `word`, as `-f`/`-d` complete them. */
async function files(sh: Shell, word: string, dirsOnly: boolean): Promise<string[]> {
  const slash = word.lastIndexOf('/');
  const dir = slash === -1 ? '' : word.slice(0, slash + 1);
  const base = word.slice(slash + 1);
  let entries: { name: string; type: string }[];
  try {
    entries = await sh.rt.fs.readdir(resolvePath(sh.cwd, dir === '' ? '.' : dir));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!e.name.startsWith(base)) continue;
    if (e.name.startsWith('.') && !base.startsWith('.')) continue;
    let isDir = e.type === 'directory';
    if (e.type === 'symlink') {
      try {
        isDir = (await sh.rt.fs.stat(resolvePath(sh.cwd, dir + e.name))).type === 'directory';
      } catch {
        isDir = false;
      }
    }
    if (dirsOnly && !isDir) continue;
    out.push(dir + e.name);
  }
  return out.sort(compareBytes);
}

/** `-W wordlist`: expanded (parameters, command substitution), then split by IFS (`\\` quotes). */
async function wordlist(sh: Shell, text: string): Promise<string[]> {
  const expanded = await expandToString(
    sh,
    parseHereDocBody(new Parser(text, { extglob: () => sh.opts.s('extglob') })),
  );
  const ifs = getVar(sh, 'IFS') ?? ' \t\n';
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < expanded.length; i += 1) {
    const c = expanded[i] as string;
    if (c === '\\' && i + 1 < expanded.length) {
      cur += expanded[i + 1];
      i += 1;
      continue;
    }
    if (ifs.includes(c)) {
      if (cur !== '') out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

async function runCompletionFunction(sh: Shell, func: string, word: string): Promise<string[]> {
  const fn = sh.functions.get(func);
  if (fn === undefined) return [];
  setVar(sh, 'COMP_LINE', '');
  setVar(sh, 'COMP_POINT', '0');
  setVar(sh, 'COMP_CWORD', '-1');
  assignArray(sh, 'COMP_WORDS', []);
  unsetVar(sh, 'COMPREPLY');
  try {
    await callFunction(sh, fn, [func, 'compgen', word, '']);
  } catch (error) {
    if (!(error instanceof DiscardControl)) throw error;
    throw error;
  }
  return arrayValues(sh, 'COMPREPLY');
}

async function runCompletionCommand(sh: Shell, command: string, word: string): Promise<string> {
  const parser = new Parser(`${command} compgen ${quote(word)} ''`);
  const script = parser.parseAll();
  void runSource;
  return commandSubstitution(sh, script);
}
