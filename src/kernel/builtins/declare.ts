/**
 * `declare`/`typeset`, `local`, `export`, `readonly`: attributes (`-a -A -i -l -u -n -r -x -t
 * -g`), assignments kept whole (`declare a=(1 2)`), the listings (`-p`, `-f`, `-F`) in bash's
 * re-readable form.
 * @module
 */

import { runSource, SyntaxAbort } from '../exec/source-loop.js';
import { runSubscriptCommands } from '../exec/subscript-commands.js';
import { arrayLiteral, attributeLetters } from '../expand/param.js';
import { doubleQuote } from '../expand/quote.js';
import { discard, ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import {
  type ArrayItem,
  ATTR_DYNAMIC,
  assignArray,
  isValidName,
  lookup,
  setAttributes,
  setElement,
  setVar,
  unsetVar,
} from '../runtime/vars.js';
import { AssocArray, IndexedArray } from '../state/arrays.js';
import {
  ATTR_ASSOC,
  ATTR_CAPITALIZE,
  ATTR_EXPORT,
  ATTR_INDEXED,
  ATTR_INTEGER,
  ATTR_LOWER,
  ATTR_NAMEREF,
  ATTR_READONLY,
  ATTR_TRACE,
  ATTR_UPPER,
  cloneVariable,
  isArrayValue,
} from '../state/variables.js';
import { printFunction } from '../syntax/print.js';
import { complain, print, usageLine } from './support.js';
import type { Builtin, BuiltinCall, DeclArg } from './types.js';

const LETTER_ATTRS: Readonly<Record<string, number>> = {
  a: ATTR_INDEXED,
  A: ATTR_ASSOC,
  i: ATTR_INTEGER,
  l: ATTR_LOWER,
  u: ATTR_UPPER,
  n: ATTR_NAMEREF,
  r: ATTR_READONLY,
  x: ATTR_EXPORT,
  t: ATTR_TRACE,
  c: ATTR_CAPITALIZE,
};

type Kind = 'declare' | 'typeset' | 'local' | 'export' | 'readonly';

const USAGES: Readonly<Record<Kind, string>> = {
  declare: 'declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]',
  typeset: 'typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]',
  local: 'local [option] name[=value] ...',
  export: 'export [-fn] [name[=value] ...] or export -p',
  readonly: 'readonly [-aAf] [name[=value] ...] or readonly -p',
};

const ALLOWED: Readonly<Record<Kind, string>> = {
  declare: 'aAfFgiIlnprtuxc',
  typeset: 'aAfFgiIlnprtuxc',
  local: 'aAfFgiIlnprtuxc',
  export: 'aAfnp',
  readonly: 'aAfp',
};

function declaration(kind: Kind): Builtin {
  return {
    name: kind,
    special: kind === 'export' || kind === 'readonly',
    declaration: true,
    synopsis: USAGES[kind],
    help: helpFor(kind),
    run: (call) => runDeclaration(kind, call),
  };
}

function helpFor(kind: Kind): string {
  switch (kind) {
    case 'export':
      return 'Mark names for export to the environment of commands (-n removes the mark, -f names functions, -p lists).';
    case 'readonly':
      return 'Mark names read-only (-a/-A arrays, -f functions, -p lists).';
    case 'local':
      return 'Create variables local to the current function, with the attributes of declare.';
    default:
      return 'Declare variables and give them attributes: -a indexed array, -A associative array, -i integer, -l/-u lower/upper case, -n name reference, -r read-only, -x export, -g global, -p print, -f/-F functions.';
  }
}

async function runDeclaration(kind: Kind, call: BuiltinCall): Promise<number> {
  const { sh } = call;
  const args: DeclArg[] =
    call.decl !== undefined ? [...call.decl] : call.argv.slice(1).map((text) => ({ kind: 'word', text }));
  let add = 0;
  let remove = 0;
  const flags = new Set<string>();
  let i = 0;
  for (; i < args.length; i += 1) {
    const a = args[i] as DeclArg;
    if (a.kind !== 'word') break;
    const t = a.text;
    if (t === '--') {
      i += 1;
      break;
    }
    if (t.length < 2 || (t[0] !== '-' && t[0] !== '+')) break;
    for (const letter of t.slice(1)) {
      if (!ALLOWED[kind].includes(letter)) {
        await complain(sh, kind, `${t[0]}${letter}: invalid option`);
        await usageLine(sh, kind, USAGES[kind]);
        return 2;
      }
      // `export -n` removes the export mark (it is no name reference there).
      const attr = kind === 'export' && letter === 'n' ? undefined : LETTER_ATTRS[letter];
      if (attr !== undefined) {
        if (t[0] === '-') add |= attr;
        else remove |= attr;
      } else flags.add(t[0] === '+' ? `+${letter}` : letter);
    }
  }
  const rest = args.slice(i);
  if (kind === 'export') {
    if (flags.has('n')) {
      remove |= ATTR_EXPORT;
    } else add |= ATTR_EXPORT;
  }
  if (kind === 'readonly') add |= ATTR_READONLY;
  if (kind === 'local' && !sh.vars.inFunction) {
    await complain(sh, 'local', 'can only be used in a function');
    return 1;
  }
  if (flags.has('f') || flags.has('F')) return functions(sh, kind, rest, flags, add, remove);
  if (flags.has('p') || (rest.length === 0 && kind !== 'local')) {
    if (
      rest.length === 0 &&
      !flags.has('p') &&
      (kind === 'declare' || kind === 'typeset') &&
      add === 0 &&
      remove === 0
    ) {
      return listAll(sh);
    }
    return printVars(sh, kind, rest, add);
  }
  if (rest.length === 0 && kind === 'local') return printVars(sh, kind, [], 0);
  const local =
    kind === 'local' || ((kind === 'declare' || kind === 'typeset') && sh.vars.inFunction && !flags.has('g'));
  const global = flags.has('g');
  let status = 0;
  for (const arg of rest) {
    try {
      await declareOne(sh, kind, arg, add, remove, local, global);
      if (local && sh.vars.inFunction) sh.vars.markLocal(declaredName(arg));
    } catch (error) {
      if (error instanceof ShellError && error.effect === 'status') {
        await complain(sh, kind, error.message);
        status = 1;
        continue;
      }
      throw error;
    }
  }
  return status;
}

/** A `name=value` given as a plain word (`declare "$x"`), parsed at run time. */
function wordAssignment(text: string): DeclArg | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?(\+?)=(.*)$/s.exec(text);
  if (m === null) return undefined;
  return {
    kind: 'assign',
    name: m[1] as string,
    index: m[2] === undefined ? undefined : (m[2] as string).slice(1, -1),
    append: m[3] === '+',
    value: m[4] as string,
    text,
  };
}

/** A local cannot hide a readonly variable of an outer scope (bash: `local: y: readonly variable`). */
function refuseReadonlyShadow(sh: Shell, name: string): void {
  const outer = sh.vars.find(name)?.variable;
  if (outer !== undefined && outer.attrs & ATTR_READONLY) throw new ShellError(`${name}: readonly variable`);
}

/** The variable a `local`/`declare` argument is about. */
function declaredName(arg: DeclArg): string {
  const parsed = arg.kind === 'assign' ? arg : wordAssignment(arg.text);
  const name = parsed !== undefined && parsed.kind === 'assign' ? parsed.name : arg.text;
  return name.replace(/\[.*$/s, '');
}

async function declareOne(
  sh: Shell,
  kind: Kind,
  raw: DeclArg,
  add: number,
  remove: number,
  local: boolean,
  global: boolean,
): Promise<void> {
  let arg = raw;
  if (arg.kind === 'word') {
    const parsed = wordAssignment(arg.text);
    if (parsed === undefined) {
      const name = arg.text;
      if (!isValidName(name.replace(/\[.*\]$/, '')))
        throw new ShellError(`\`${name}': not a valid identifier`);
      // `readonly -a x` and `export -A x` without a value give no array attribute (bash's).
      const kept = kind === 'readonly' || kind === 'export' ? add & ~(ATTR_INDEXED | ATTR_ASSOC) : add;
      declareName(sh, name, kept, remove, local, global);
      return;
    }
    arg = parsed;
    if (
      arg.kind === 'assign' &&
      arg.index === undefined &&
      /^\(.*\)$/s.test(arg.value ?? '') &&
      add & (ATTR_INDEXED | ATTR_ASSOC)
    ) {
      // `declare -a "x=(1 2)"`: a compound value given as a word.
      const items = await parseArrayText(sh, arg.value as string);
      arg = { ...arg, value: undefined, array: items };
    }
  }
  if (arg.kind !== 'assign') return;
  const { name } = arg;
  if (!isValidName(name)) throw new ShellError(`\`${arg.text}': not a valid identifier`);
  const existing = local ? sh.vars.localFor(name).vars.get(name) : lookup(sh, name)?.variable;
  if (existing !== undefined && existing.attrs & ATTR_READONLY && kind !== 'export') {
    throw new ShellError(`${name}: readonly variable`);
  }
  if (local && existing === undefined) refuseReadonlyShadow(sh, name);
  const opts = { local, global };
  const nameref = (add & ATTR_NAMEREF) !== 0;
  const current = existing?.value;
  if (add & ATTR_ASSOC && current instanceof IndexedArray && current.size > 0) {
    throw discard(`${name}: cannot convert indexed to associative array`);
  }
  if (add & ATTR_INDEXED && current instanceof AssocArray) {
    throw discard(`${name}: cannot convert associative to indexed array`);
  }
  // Attributes first (so -i, -l, -u apply to the value), except readonly (after the value).
  const early = add & ~ATTR_READONLY;
  if (early !== 0 || remove !== 0 || local) {
    if (!(nameref && arg.value !== undefined)) setAttributes(sh, name, early, remove, opts);
  }
  if (nameref) {
    if (arg.value !== undefined && arg.value !== '' && !isValidName(arg.value.replace(/\[.*\]$/, ''))) {
      throw new ShellError(`\`${arg.value}': invalid variable name for name reference`);
    }
    const scope = local
      ? sh.vars.localFor(name)
      : global
        ? sh.vars.global
        : (sh.vars.find(name)?.scope ?? sh.vars.global);
    sh.vars.put(scope, name, {
      value: arg.value,
      attrs: (scope.vars.get(name)?.attrs ?? 0) | ATTR_NAMEREF | (add & ~ATTR_NAMEREF),
    });
  } else if (arg.array !== undefined) {
    const warnings = assignArray(sh, name, arg.array, {
      ...opts,
      append: arg.append,
      assoc: (add & ATTR_ASSOC) !== 0 || undefined,
    });
    for (const w of warnings) await complain(sh, kind, w);
  } else if (arg.index !== undefined) {
    setElement(sh, name, arg.index, arg.value ?? '', { ...opts, append: arg.append });
  } else if (add & ATTR_ASSOC && !arg.append) {
    assignArray(sh, name, [{ key: '0', value: arg.value ?? '' }], { ...opts, assoc: true });
  } else if (add & ATTR_INDEXED && !arg.append) {
    assignArray(sh, name, [{ value: arg.value ?? '' }], opts);
  } else {
    setVar(sh, name, arg.value ?? '', { ...opts, append: arg.append });
  }
  if (add & ATTR_READONLY) setAttributes(sh, name, ATTR_READONLY, 0, opts);
  if (add & ATTR_EXPORT) setAttributes(sh, name, ATTR_EXPORT, 0, opts);
}

async function parseArrayText(sh: Shell, text: string): Promise<ArrayItem[]> {
  // Reuse the parser and expander: run `__berth_decl=TEXT` in a scratch scope.
  const scratch = '__berth_decl_array';
  sh.vars.push('temp');
  try {
    try {
      await runSource(sh, `${scratch}=${text}`, { kind: 'eval', topLevel: false });
    } catch (error) {
      if (error instanceof SyntaxAbort) return [];
      throw error;
    }
    const f = sh.vars.find(scratch);
    const v = f?.variable.value;
    if (v instanceof IndexedArray)
      return v.keys().map((k) => ({ key: String(k), value: v.get(k) as string }));
    if (v instanceof AssocArray) return v.keys().map((k) => ({ key: k, value: v.get(k) as string }));
    return [];
  } finally {
    sh.vars.pop();
  }
}

function declareName(
  sh: Shell,
  name: string,
  add: number,
  remove: number,
  local: boolean,
  global: boolean,
): void {
  const opts = { local, global };
  if (local && sh.vars.localFor(name).vars.get(name) === undefined) {
    refuseReadonlyShadow(sh, name);
    // `local x` with no value: a new unset local; over a temporary binding (`v=x f`, `v=x eval`)
    // bash's local starts with that value.
    const f = sh.vars.find(name);
    if (f !== undefined && (f.scope.kind === 'temp' || f.scope.tempNames?.has(name) === true)) {
      sh.vars.put(sh.vars.localScope, name, cloneVariable(f.variable));
    }
    setAttributes(sh, name, add, remove, opts);
    return;
  }
  setAttributes(sh, name, add, remove, opts);
}

/** One variable as `declare -p` prints it. */
export function declareLine(sh: Shell, name: string): string | undefined {
  const f = lookup(sh, name);
  const found = sh.vars.find(name);
  const v =
    found?.variable.attrs !== undefined && found.variable.attrs & ATTR_NAMEREF ? found.variable : f?.variable;
  if (v === undefined) return undefined;
  const flags = attributeLetters(v.attrs & ~ATTR_DYNAMIC, v.value);
  const head = `declare -${flags === '' ? '-' : flags} ${name}`;
  const value = v.value;
  // Declared but never assigned (`declare -a x`): bash prints no value at all.
  if (value === undefined || (isArrayValue(value) && value.declaredOnly && value.size === 0)) return head;
  if (isArrayValue(value)) return `${head}=${arrayLiteral(value)}`;
  return `${head}=${doubleQuote(value)}`;
}

async function printVars(sh: Shell, kind: Kind, rest: readonly DeclArg[], filter: number): Promise<number> {
  let out = '';
  let status = 0;
  if (rest.length === 0) {
    const names = (kind === 'local' ? sh.vars.localScope.vars.keys() : sh.vars.names()).sort();
    for (const name of names) {
      const f = sh.vars.find(name);
      if (f === undefined) continue;
      if (f.variable.attrs & ATTR_DYNAMIC && kind !== 'declare' && kind !== 'typeset') continue;
      // `export -a` and `readonly -A` list only the arrays of that kind among their names.
      const want = (kind === 'export' ? ATTR_EXPORT : kind === 'readonly' ? ATTR_READONLY : 0) | filter;
      if (want !== 0 && (f.variable.attrs & want) !== want) continue;
      const line = declareLine(sh, name);
      if (line !== undefined) out += `${line}\n`;
    }
    await print(sh, out);
    return 0;
  }
  for (const a of rest) {
    const name = a.kind === 'word' ? a.text : a.name;
    const line = declareLine(sh, name);
    if (line === undefined) {
      await complain(sh, kind, `${name}: not found`);
      status = 1;
      continue;
    }
    out += `${line}\n`;
  }
  await print(sh, out);
  return status;
}

/** `declare` alone: every variable (`name=value`), then every function. */
async function listAll(sh: Shell): Promise<number> {
  let out = '';
  for (const name of sh.vars.names().sort()) {
    const f = sh.vars.find(name);
    if (f === undefined || f.variable.attrs & ATTR_DYNAMIC) continue;
    const v = f.variable.value;
    if (v === undefined) continue;
    out += isArrayValue(v)
      ? `${name}=${arrayLiteral(v)}\n`
      : `${name}=${doubleQuote(v).replace(/^"(.*)"$/s, (_m, inner: string) => (/^[A-Za-z0-9_./:,+@%=-]*$/.test(inner) ? inner : `'${inner}'`))}\n`;
  }
  for (const name of sh.functions.keys().sort()) {
    const fn = sh.functions.get(name);
    if (fn !== undefined) out += `${printFunction(name, fn.definition.body)}\n`;
  }
  await print(sh, out);
  return 0;
}

async function functions(
  sh: Shell,
  kind: Kind,
  rest: readonly DeclArg[],
  flags: Set<string>,
  add: number,
  remove: number,
): Promise<number> {
  const names = rest.map((a) => (a.kind === 'word' ? a.text : a.name));
  if (kind === 'export' || kind === 'readonly' || add !== 0 || remove !== 0) {
    let status = 0;
    for (const name of names) {
      const fn = sh.functions.mutable(name, (f) => ({ ...f }));
      if (fn === undefined) {
        await complain(sh, kind, `${name}: not a function`);
        status = 1;
        continue;
      }
      fn.attrs = (fn.attrs | add) & ~remove;
    }
    if (names.length > 0) return status;
  }
  const brief = flags.has('F');
  let out = '';
  let status = 0;
  const list = names.length === 0 ? sh.functions.keys().sort() : names;
  for (const name of list) {
    const fn = sh.functions.get(name);
    if (fn === undefined) {
      status = 1;
      continue;
    }
    if (names.length === 0 && kind === 'export' && !(fn.attrs & ATTR_EXPORT)) continue;
    if (brief && names.length === 0) out += `declare -f${fn.attrs & ATTR_EXPORT ? 'x' : ''} ${name}\n`;
    // With `shopt -s extdebug`, `declare -F name` says where the function was defined.
    else if (brief)
      out += sh.opts.s('extdebug') ? `${name} ${fn.definition.line} ${fn.source}\n` : `${name}\n`;
    else out += `${printFunction(name, fn.definition.body)}\n`;
  }
  await print(sh, out);
  return status;
}

export const declare = declaration('declare');
export const typeset = declaration('typeset');
export const local = declaration('local');
export const exportBuiltin = declaration('export');
export const readonly = declaration('readonly');

export const unset: Builtin = {
  name: 'unset',
  special: true,
  synopsis: 'unset [-f] [-v] [-n] [name ...]',
  help: 'Remove variables (-v, the default) or functions (-f); -n removes a name reference itself.',
  async run({ sh, argv }) {
    let mode: 'v' | 'f' | 'n' | 'any' = 'any';
    let i = 1;
    for (; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '--') {
        i += 1;
        break;
      }
      if (!/^-[fvn]+$/.test(a)) {
        if (a.startsWith('-') && a.length > 1) {
          await complain(sh, 'unset', `${a.slice(0, 2)}: invalid option`);
          await usageLine(sh, 'unset', 'unset [-f] [-v] [-n] [name ...]');
          return 2;
        }
        break;
      }
      for (const c of a.slice(1)) mode = c as 'v' | 'f' | 'n';
    }
    let status = 0;
    for (const name of argv.slice(i)) {
      try {
        if (mode === 'f') {
          if ((sh.functions.get(name)?.attrs ?? 0) & ATTR_READONLY) {
            await complain(sh, 'unset', `${name}: cannot unset: readonly function`);
            status = 1;
          } else sh.functions.delete(name);
          continue;
        }
        const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(name);
        if (m !== null) {
          const { unsetElement } = await import('../runtime/vars.js');
          unsetElement(sh, m[1] as string, await runSubscriptCommands(sh, m[2] as string));
          continue;
        }
        if (!isValidName(name)) {
          await complain(sh, 'unset', `\`${name}': not a valid identifier`);
          status = 1;
          continue;
        }
        if (mode === 'n') {
          unsetVar(sh, name);
          continue;
        }
        const target = sh.vars.resolveName(name);
        const found = sh.vars.find(target.replace(/\[.*$/, ''));
        if (found === undefined && mode === 'any' && sh.functions.get(name) !== undefined) {
          sh.functions.delete(name);
          continue;
        }
        if (target.includes('[')) {
          const mm = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(target);
          if (mm !== null) {
            const { unsetElement } = await import('../runtime/vars.js');
            unsetElement(sh, mm[1] as string, await runSubscriptCommands(sh, mm[2] as string));
          }
          continue;
        }
        unsetVar(sh, target);
      } catch (error) {
        if (error instanceof ShellError) {
          await complain(sh, 'unset', error.message);
          status = 1;
          continue;
        }
        throw error;
      }
    }
    return status;
  },
};
