/**
 * Reading and assigning shell variables with bash's rules: namerefs, `readonly`, `-i` (values
 * are arithmetic), `-l`/`-u`, arrays (element 0 for a scalar use), negative indices, `allexport`,
 * the dynamic variables (`RANDOM`, `SECONDS`, `LINENO`, `FUNCNAME`, ...) and the memory budget.
 * @module
 */
import { limitReached } from '../limits.js';
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
  ATTR_UPPER,
  CIRCULAR,
  isArrayValue,
  type Scope,
  type Variable,
  type VarValue,
} from '../state/variables.js';
import { commandText } from '../syntax/print.js';
import { arith } from './arith-scope.js';
import { discard, ShellError } from './errors.js';
import type { Shell } from './shell.js';
import { expandSubscript } from './subscript.js';

/** Computed on every read; assigning may have an effect (`RANDOM=seed`, `SECONDS=0`). */
export const ATTR_DYNAMIC = 1 << 12;

export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidName(name: string): boolean {
  return NAME_RE.test(name);
}

/** Resolve namerefs: the name a variable access really reaches (may carry a subscript). */
export function refName(sh: Shell, name: string): string {
  return sh.vars.resolveName(name);
}

/** The variable behind `name` after namerefs, with its scope. */
export function lookup(sh: Shell, name: string): { variable: Variable; scope: Scope } | undefined {
  const f = sh.vars.find(refName(sh, name));
  return f === undefined ? undefined : { variable: f.variable, scope: f.scope };
}

/** A scalar read: `$name` (element 0 / key `0` of an array). `undefined` when unset. */
export function getVar(sh: Shell, name: string): string | undefined {
  const target = refName(sh, name);
  const bracket = target.indexOf('[');
  if (bracket > 0 && target.endsWith(']')) {
    return getElement(sh, target.slice(0, bracket), rawKey(sh, target.slice(bracket + 1, -1)));
  }
  const f = sh.vars.find(target);
  if (f === undefined) return undefined;
  const v = f.variable;
  if (v.attrs & ATTR_DYNAMIC) return dynamicScalar(sh, target);
  const value = v.value;
  if (value === undefined || typeof value === 'string') return value;
  if (value instanceof IndexedArray) return value.get(0);
  return value.get('0');
}

/** `${name[key]}` for a key as written (evaluated for an indexed array). */
export function getElement(sh: Shell, name: string, key: string): string | undefined {
  const f = sh.vars.find(refName(sh, name));
  if (f === undefined) return undefined;
  const value = f.variable.attrs & ATTR_DYNAMIC ? dynamicArray(sh, name) : f.variable.value;
  if (value instanceof AssocArray) return value.get(key);
  const index = Number(arith(sh, key));
  if (value instanceof IndexedArray) {
    const i = value.resolve(index);
    if (i === undefined) {
      // Reading before the start: bash warns and reads nothing.
      sh.warnings.push(`${name}: bad array subscript`);
      return undefined;
    }
    return value.get(i);
  }
  if (index === 0 || index === -1) return value;
  return undefined;
}

/** All values of an array (or the one value of a scalar). */
export function arrayValues(sh: Shell, name: string): string[] {
  const f = sh.vars.find(refName(sh, name));
  if (f === undefined) return [];
  const value = f.variable.attrs & ATTR_DYNAMIC ? dynamicArray(sh, name) : f.variable.value;
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  return value.values();
}

/** The keys of an array (`${!a[@]}`); `['0']` for a set scalar. */
export function arrayKeys(sh: Shell, name: string): string[] {
  const f = sh.vars.find(refName(sh, name));
  if (f === undefined) return [];
  const value = f.variable.attrs & ATTR_DYNAMIC ? dynamicArray(sh, name) : f.variable.value;
  if (value === undefined) return [];
  if (typeof value === 'string') return ['0'];
  if (value instanceof IndexedArray) return value.keys().map(String);
  return [...value.keys()];
}

export interface AssignOptions {
  /** Create in the innermost function scope (`local`, `declare` in a function). */
  readonly local?: boolean;
  /** With `local`: in the innermost scope, the temporary one of `name=value cmd`. */
  readonly temp?: boolean;
  /** Create in the global scope (`declare -g`). */
  readonly global?: boolean;
  /** `+=`. */
  readonly append?: boolean;
}

/** Where an assignment lands: the existing binding, or a new one per `opts`. */
function targetScope(
  sh: Shell,
  name: string,
  opts: AssignOptions,
): { scope: Scope; existing: Variable | undefined } {
  if (opts.local) {
    const scope = opts.temp ? (sh.vars.scopes[sh.vars.scopes.length - 1] as Scope) : sh.vars.localFor(name);
    return { scope, existing: scope.vars.get(name) };
  }
  if (opts.global) {
    const scope = sh.vars.global;
    return { scope, existing: scope.vars.get(name) };
  }
  const f = sh.vars.find(name);
  if (f !== undefined) return { scope: f.scope, existing: f.variable };
  return { scope: sh.vars.global, existing: undefined };
}

/** Apply `-i`, `-l`, `-u` to a value being assigned (with `+=`, `old` is what it adds to). */
function transform(
  sh: Shell,
  attrs: number,
  value: string,
  old: string | undefined,
  append: boolean,
): string {
  if (attrs & ATTR_INTEGER) {
    const n = arith(sh, value);
    if (append) return String(BigInt.asIntN(64, arith(sh, old === undefined || old === '' ? '0' : old) + n));
    return String(n);
  }
  let out = append ? (old ?? '') + value : value;
  if (attrs & ATTR_LOWER) out = out.toLowerCase();
  else if (attrs & ATTR_UPPER) out = out.toUpperCase();
  else if (attrs & ATTR_CAPITALIZE) out = out.charAt(0).toUpperCase() + out.slice(1).toLowerCase();
  return out;
}

function checkWritable(sh: Shell, name: string, v: Variable | undefined): void {
  // bash ends a `set -e` script here even inside a condition; in POSIX mode, any script.
  if (v !== undefined && v.attrs & ATTR_READONLY) {
    const effect = sh.opts.o('posix') && !sh.interactive ? 'exit' : 'discard';
    throw new ShellError(`${name}: readonly variable`, 1, effect, true);
  }
}

/** `name=value` (or `name+=value`). */
export function setVar(sh: Shell, name: string, value: string, opts: AssignOptions = {}): void {
  let target = name;
  const existingRef = sh.vars.findVariable(name);
  const isRef = ((existingRef?.attrs ?? 0) & ATTR_NAMEREF) !== 0;
  if (isRef && opts.local !== true) target = refName(sh, name);
  if (target === CIRCULAR) throw new ShellError(`${name}: circular name reference`);
  const bracket = target.indexOf('[');
  if (bracket > 0 && target.endsWith(']')) {
    setElement(sh, target.slice(0, bracket), rawKey(sh, target.slice(bracket + 1, -1)), value, opts);
    return;
  }
  const { scope, existing } = targetScope(sh, target, opts);
  checkWritable(sh, target, existing);
  if (existing !== undefined && existing.attrs & ATTR_DYNAMIC) {
    assignDynamic(sh, target, value);
    return;
  }
  const attrs = existing?.attrs ?? 0;
  const oldValue = existing?.value;
  if (isArrayValue(oldValue)) {
    const v = sh.vars.mutable(scope, target) as Variable;
    if (v.value instanceof IndexedArray) {
      const next = transform(sh, attrs, value, v.value.get(0), opts.append === true);
      charge(sh, next.length - (v.value.get(0)?.length ?? 0));
      v.value.set(0, next);
    } else if (v.value instanceof AssocArray) {
      const next = transform(sh, attrs, value, v.value.get('0'), opts.append === true);
      charge(sh, next.length - (v.value.get('0')?.length ?? 0));
      v.value.set('0', next);
    }
    return;
  }
  const next = transform(
    sh,
    attrs,
    value,
    typeof oldValue === 'string' ? oldValue : undefined,
    opts.append === true,
  );
  sh.rt.budget.string(next.length);
  charge(sh, next.length - (typeof oldValue === 'string' ? oldValue.length : 0));
  const exported = sh.opts.allexport ? ATTR_EXPORT : 0;
  sh.vars.put(scope, target, { value: next, attrs: attrs | exported });
}

/** `name[key]=value`. */
export function setElement(
  sh: Shell,
  name: string,
  key: string,
  value: string,
  opts: AssignOptions = {},
): void {
  const target = refName(sh, name);
  // `ref[0]=x` through a nameref to `array[0]`: bash refuses the element of an element.
  if (target !== name && target.includes('[')) throw discard(`\`${target}': not a valid identifier`);
  const { scope, existing } = targetScope(sh, target, opts);
  checkWritable(sh, target, existing);
  const attrs = existing?.attrs ?? 0;
  if (existing === undefined || existing.value === undefined || typeof existing.value === 'string') {
    const arr =
      attrs & ATTR_ASSOC
        ? new AssocArray()
        : typeof existing?.value === 'string'
          ? IndexedArray.from([existing.value])
          : new IndexedArray();
    sh.vars.put(scope, target, {
      value: arr,
      attrs: (attrs | (arr instanceof AssocArray ? ATTR_ASSOC : ATTR_INDEXED)) & ~ATTR_NAMEREF,
    });
  }
  const v = sh.vars.mutable(scope, target) as Variable;
  const arr = v.value as IndexedArray | AssocArray;
  if (arr instanceof AssocArray) {
    const next = transform(sh, v.attrs, value, arr.get(key), opts.append === true);
    charge(sh, next.length + (arr.has(key) ? -(arr.get(key) as string).length : key.length));
    arr.set(key, next);
    return;
  }
  const raw = Number(arith(sh, key));
  const index = arr.resolve(raw);
  if (index === undefined) throw discard(`${target}[${key}]: bad array subscript`);
  const next = transform(sh, v.attrs, value, arr.get(index), opts.append === true);
  charge(sh, next.length - (arr.get(index)?.length ?? 0));
  if (!arr.has(index) && arr.size >= sh.rt.limits.maxArrayElements) {
    throw limitArray(sh);
  }
  arr.set(index, next);
}

function limitArray(sh: Shell): never {
  throw limitReached(sh.rt.limits, 'maxArrayElements');
}

export interface ArrayItem {
  readonly key?: string | undefined;
  readonly value: string;
  readonly append?: boolean;
}

/** `name=(...)` / `name+=(...)`, with `[key]=value` items. */
export function assignArray(
  sh: Shell,
  name: string,
  items: readonly ArrayItem[],
  opts: AssignOptions & { readonly assoc?: boolean } = {},
): string[] {
  const target = refName(sh, name);
  const { scope, existing } = targetScope(sh, target, opts);
  checkWritable(sh, target, existing);
  const attrs = existing?.attrs ?? 0;
  const assoc = opts.assoc === true || (attrs & ATTR_ASSOC) !== 0 || existing?.value instanceof AssocArray;
  const warnings: string[] = [];
  // The array is live while its items are assigned: `a=([0]=1 [a[0]]=2)` sees a[0].
  if (!(opts.append && existing !== undefined && isArrayValue(existing.value))) {
    const fresh = assoc ? new AssocArray() : new IndexedArray();
    if (opts.append && typeof existing?.value === 'string') {
      if (fresh instanceof AssocArray) fresh.set('0', existing.value);
      else fresh.set(0, existing.value);
    }
    const kind = assoc ? ATTR_ASSOC : ATTR_INDEXED;
    const exported = sh.opts.o('allexport') ? ATTR_EXPORT : 0;
    sh.vars.put(scope, target, {
      value: fresh,
      attrs: ((attrs & ~(ATTR_ASSOC | ATTR_INDEXED)) | kind | exported) & ~ATTR_NAMEREF,
    });
  }
  const arrOf = (): IndexedArray | AssocArray =>
    (sh.vars.mutable(scope, target) as Variable).value as IndexedArray | AssocArray;
  // `x+=()` assigns, even nothing: `declare -a x; x+=()` prints as `x=()`.
  arrOf().declaredOnly = false;
  let bytes = 0;
  // `+=` on an element appends only inside `name+=(...)`; inside `name=(...)` it assigns.
  const appendItem = (item: ArrayItem): boolean => item.append === true && (!assoc || opts.append === true);
  if (assoc && items.length > 0 && items[0]?.key === undefined) {
    // bash 5.1+: `assoc=(key value key value ...)`.
    for (let k = 0; k < items.length; k += 2) {
      const key = (items[k] as ArrayItem).value;
      const value = items[k + 1]?.value ?? '';
      const arr = arrOf() as AssocArray;
      arr.set(key, transform(sh, attrs, value, arr.get(key), false));
      bytes += key.length + value.length;
    }
    charge(sh, bytes);
    return warnings;
  }
  let next = assoc ? 0 : (arrOf() as IndexedArray).end;
  for (const item of items) {
    bytes += item.value.length;
    const arr = arrOf();
    if (arr instanceof AssocArray) {
      if (item.key === undefined) {
        warnings.push(`${target}: ${item.value}: must use subscript when assigning associative array`);
        continue;
      }
      arr.set(item.key, transform(sh, attrs, item.value, arr.get(item.key), appendItem(item)));
      bytes += item.key.length;
      continue;
    }
    let index = next;
    if (item.key !== undefined) {
      const raw = Number(arith(sh, item.key));
      const resolved = (arrOf() as IndexedArray).resolve(raw);
      if (resolved === undefined) throw new ShellError(`${target}[${item.key}]: bad array subscript`);
      index = resolved;
    }
    const live = arrOf() as IndexedArray;
    live.set(index, transform(sh, attrs, item.value, live.get(index), appendItem(item)));
    if (live.size > sh.rt.limits.maxArrayElements) throw limitArray(sh);
    next = index + 1;
  }
  charge(sh, bytes);
  return warnings;
}

/** `unset name`: bash's dynamic unset (a local of the current function stays, as unset). */
export function unsetVar(sh: Shell, name: string): void {
  const f = sh.vars.find(name);
  if (f === undefined) return;
  if (f.variable.attrs & ATTR_READONLY) throw new ShellError(`${name}: cannot unset: readonly variable`);
  const v = f.variable;
  if (typeof v.value === 'string') charge(sh, -v.value.length);
  // Unset of a local in the function that made it: the name stays local, unset. From a callee,
  // or of a `v=x f` binding: the binding goes, and what was below shows again.
  if (
    sh.vars.localScope.kind === 'function' &&
    f.depth >= sh.vars.localDepth &&
    sh.vars.isLocalBinding(f.scope, name)
  ) {
    sh.vars.put(f.scope, name, { value: undefined, attrs: v.attrs & (ATTR_EXPORT | ATTR_NAMEREF) });
    return;
  }
  sh.vars.remove(f.scope, name);
}

/** `unset 'name[key]'`. */
/** A subscript that came as text (through a nameref, `unset`, `printf -v`): expanded now. */
export function rawKey(sh: Shell, raw: string): string {
  return expandSubscript(sh, raw, (t) => arith(sh, t));
}

/** `unset 'name[key]'` (`rawSubscript`: the key as the user gave it, expanded here). */
export function unsetElement(sh: Shell, name: string, rawSubscript: string): void {
  const key = rawSubscript === '@' || rawSubscript === '*' ? rawSubscript : rawKey(sh, rawSubscript);
  const target = refName(sh, name);
  const f = sh.vars.find(target);
  if (f === undefined) return;
  if (f.variable.attrs & ATTR_READONLY) throw new ShellError(`${target}: cannot unset: readonly variable`);
  const value = f.variable.value;
  if (value instanceof AssocArray) {
    (sh.vars.mutable(f.scope, target) as Variable).value instanceof AssocArray &&
      ((sh.vars.mutable(f.scope, target) as Variable).value as AssocArray).delete(key);
    return;
  }
  if (key === '@' || key === '*') {
    sh.vars.remove(f.scope, target);
    return;
  }
  const raw = Number(arith(sh, key));
  if (value instanceof IndexedArray) {
    const index = value.resolve(raw);
    if (index === undefined) throw new ShellError(`[${key}]: bad array subscript`);
    ((sh.vars.mutable(f.scope, target) as Variable).value as IndexedArray).delete(index);
    return;
  }
  if (raw === 0) unsetVar(sh, target);
}

function charge(sh: Shell, bytes: number): void {
  if (bytes !== 0) sh.rt.budget.memory(bytes);
}

/** The exported environment a command sees. */
export function exportedEnv(sh: Shell): Map<string, string> {
  const env = new Map<string, string>();
  for (const name of sh.vars.names()) {
    const f = sh.vars.find(name);
    if (f === undefined || !(f.variable.attrs & ATTR_EXPORT)) continue;
    const value =
      f.variable.attrs & ATTR_NAMEREF
        ? typeof f.variable.value === 'string'
          ? f.variable.value
          : undefined
        : getVar(sh, name);
    if (value === undefined) continue;
    if (isArrayValue(f.variable.value)) continue;
    env.set(name, value);
  }
  return env;
}

/** Declare `name` with attributes (no value change), creating it unset when new. */
export function setAttributes(
  sh: Shell,
  name: string,
  add: number,
  remove: number,
  opts: AssignOptions = {},
): void {
  const { scope, existing } = targetScope(sh, name, opts);
  if (existing !== undefined && existing.attrs & ATTR_READONLY && remove & ATTR_READONLY) {
    throw new ShellError(`${name}: readonly variable`);
  }
  if (existing === undefined || (opts.local && scope.vars.get(name) === undefined)) {
    let value: VarValue;
    if (add & ATTR_ASSOC) value = new AssocArray();
    else if (add & ATTR_INDEXED) value = new IndexedArray();
    if (isArrayValue(value)) value.declaredOnly = true;
    sh.vars.put(scope, name, { value, attrs: add & ~remove });
    return;
  }
  const v = sh.vars.mutable(scope, name) as Variable;
  // `declare -n` on a variable whose value names no variable leaves it a plain variable.
  if (
    add & ATTR_NAMEREF &&
    typeof v.value === 'string' &&
    !/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/s.test(v.value)
  ) {
    add &= ~ATTR_NAMEREF;
  }
  v.attrs = (v.attrs | add) & ~remove;
  if (add & ATTR_ASSOC && !(v.value instanceof AssocArray)) {
    const arr = new AssocArray();
    if (typeof v.value === 'string') arr.set('0', v.value);
    else if (v.value === undefined) arr.declaredOnly = true;
    v.value = arr;
  } else if (add & ATTR_INDEXED && !isArrayValue(v.value)) {
    if (v.value === undefined) {
      v.value = new IndexedArray();
      v.value.declaredOnly = true;
    } else v.value = IndexedArray.from([v.value]);
  }
  if (add & (ATTR_LOWER | ATTR_UPPER) && typeof v.value === 'string') {
    v.value = add & ATTR_LOWER ? v.value.toLowerCase() : v.value.toUpperCase();
  }
  if (add & ATTR_INTEGER && typeof v.value === 'string' && v.value !== '') {
    v.value = String(arith(sh, v.value));
  }
}

// ---------------------------------------------------------------------------------------------
// Dynamic variables

const DYNAMIC_SCALARS = new Set([
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'EPOCHSECONDS',
  'EPOCHREALTIME',
  'LINENO',
  'BASHPID',
  'BASH_SUBSHELL',
  'SHELLOPTS',
  'BASHOPTS',
  'PPID',
  'HISTCMD',
  'BASH_COMMAND',
]);
const DYNAMIC_ARRAYS = new Set([
  'FUNCNAME',
  'BASH_SOURCE',
  'BASH_LINENO',
  'PIPESTATUS',
  'DIRSTACK',
  'GROUPS',
  'BASH_ARGC',
  'BASH_ARGV',
]);

/** Create the dynamic variables in a new shell. */
export function installDynamicVariables(sh: Shell): void {
  for (const name of DYNAMIC_SCALARS) {
    const ro = name === 'SHELLOPTS' || name === 'BASHOPTS' || name === 'PPID' ? ATTR_READONLY : 0;
    sh.vars.put(sh.vars.global, name, { value: '', attrs: ATTR_DYNAMIC | ro });
  }
  for (const name of DYNAMIC_ARRAYS) {
    sh.vars.put(sh.vars.global, name, { value: new IndexedArray(), attrs: ATTR_DYNAMIC | ATTR_INDEXED });
  }
}

function dynamicScalar(sh: Shell, name: string): string | undefined {
  switch (name) {
    case 'RANDOM':
      return String(sh.rt.random());
    case 'SRANDOM':
      return String(((sh.rt.random() << 17) ^ (sh.rt.random() << 2) ^ sh.rt.random()) >>> 0);
    case 'SECONDS':
      return String(Math.floor((sh.rt.now() - sh.rt.secondsBase) / 1000));
    case 'EPOCHSECONDS':
      return String(Math.floor(sh.rt.now() / 1000));
    case 'EPOCHREALTIME': {
      const us = Math.floor(sh.rt.now() * 1000);
      return `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
    }
    case 'LINENO':
      return String(sh.line);
    case 'BASHPID':
      return String(sh.pid);
    case 'BASH_SUBSHELL':
      return String(sh.subshellLevel);
    case 'SHELLOPTS':
      return sh.opts.shellopts();
    case 'BASHOPTS':
      return sh.opts.bashopts();
    case 'PPID':
      return String(sh.rootPid - 1);
    case 'HISTCMD':
      return '1';
    case 'BASH_COMMAND':
      return sh.currentCommand === undefined ? '' : commandText(sh.currentCommand);
    default:
      return dynamicArray(sh, name)?.get(0);
  }
}

function dynamicArray(sh: Shell, name: string): IndexedArray | undefined {
  switch (name) {
    case 'FUNCNAME': {
      if (sh.callStack.length === 0) return new IndexedArray();
      const names = [...sh.callStack].reverse().map((f) => f.name);
      // Only a script file's shell has a `main` frame (not `bash -c`, nor one reading stdin).
      return IndexedArray.from(sh.mode === 'file' ? [...names, 'main'] : names);
    }
    // As FUNCNAME: the bottom (`main`) frame is a script file's only.
    case 'BASH_SOURCE': {
      const frames = [...sh.callStack].reverse().map((f) => f.source);
      if (sh.mode !== 'file') return IndexedArray.from(frames);
      return IndexedArray.from([
        ...frames,
        sh.callStack.length > 0 ? (sh.callStack[0]?.source ?? '') : sh.source,
      ]);
    }
    case 'BASH_LINENO': {
      const frames = [...sh.callStack].reverse().map((f) => String(f.callLine));
      return IndexedArray.from(sh.mode === 'file' ? [...frames, '0'] : frames);
    }
    case 'PIPESTATUS':
      return IndexedArray.from(sh.pipeStatus.map(String));
    case 'DIRSTACK':
      return IndexedArray.from([sh.cwd, ...sh.dirStack]);
    case 'GROUPS':
      return IndexedArray.from([String(sh.rt.identity.gid)]);
    default:
      return new IndexedArray();
  }
}

function assignDynamic(sh: Shell, name: string, value: string): void {
  switch (name) {
    case 'RANDOM':
      sh.rt.seedRandom(Number(arith(sh, value === '' ? '0' : value)));
      return;
    case 'SECONDS':
      sh.rt.secondsBase = sh.rt.now() - Number(arith(sh, value === '' ? '0' : value)) * 1000;
      return;
    case 'LINENO':
    case 'BASHPID':
    case 'BASH_SUBSHELL':
    case 'EPOCHSECONDS':
    case 'EPOCHREALTIME':
    case 'SRANDOM':
    case 'HISTCMD':
      return;
    default: {
      // Assigning to a dynamic array name makes it an ordinary variable again.
      const f = sh.vars.find(name);
      if (f !== undefined)
        sh.vars.put(f.scope, name, { value, attrs: f.variable.attrs & ~ATTR_DYNAMIC & ~ATTR_INDEXED });
    }
  }
}

export { ATTR_NAMEREF };
