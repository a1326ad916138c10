/**
 * Shell variables with bash's dynamic scoping: a global scope, one scope per function call (its
 * `local`s) and temporary scopes for `name=value cmd` bindings. Each scope is a {@link CowMap},
 * so a subshell forks the whole stack in O(depth) without copying a variable.
 * @module
 */
import { AssocArray, IndexedArray } from './arrays.js';
import { CowMap, type Shareable } from './cow-map.js';

export const ATTR_EXPORT = 1;
export const ATTR_READONLY = 2;
export const ATTR_INTEGER = 4;
export const ATTR_LOWER = 8;
export const ATTR_UPPER = 16;
export const ATTR_NAMEREF = 32;
export const ATTR_INDEXED = 64;
export const ATTR_ASSOC = 128;
export const ATTR_TRACE = 256;
export const ATTR_CAPITALIZE = 512;

export type VarValue = string | IndexedArray | AssocArray | undefined;

export interface Variable extends Shareable {
  /** `undefined`: declared (`declare x`, `local x`) but unset. */
  value: VarValue;
  attrs: number;
}

export type ScopeKind = 'global' | 'function' | 'temp';

export interface Scope {
  readonly kind: ScopeKind;
  readonly vars: CowMap<Variable>;
  /**
   * A function scope that began as the temporary scope of its call (`v=x f`): the names that
   * came from it (a `local v` further down inherits such a value, as bash's does).
   */
  readonly tempNames?: Set<string>;
  /** A temporary scope: the names `local` made local in it (`v=x eval 'local v=y'`). */
  localNames?: Set<string>;
}

/** A readonly variable was assigned or unset. */
export class ReadonlyVariableError extends Error {
  constructor(readonly variable: string) {
    super(`${variable}: readonly variable`);
    this.name = 'ReadonlyVariableError';
  }
}

export function cloneVariable(v: Variable): Variable {
  const value = v.value;
  return {
    value: value instanceof IndexedArray || value instanceof AssocArray ? value.clone() : value,
    attrs: v.attrs,
  };
}

export function isArrayValue(v: VarValue): v is IndexedArray | AssocArray {
  return v instanceof IndexedArray || v instanceof AssocArray;
}

/** What a circular chain of namerefs resolves to: a name no variable can have (reads are empty). */
export const CIRCULAR = '\u0000circular';

/** Where a name was found. */
export interface Found {
  readonly variable: Variable;
  readonly scope: Scope;
  readonly depth: number;
}

export class VarStore {
  private constructor(readonly scopes: Scope[]) {}

  static create(): VarStore {
    return new VarStore([{ kind: 'global', vars: CowMap.create() }]);
  }

  /** A copy-on-write copy of every scope (for a subshell). */
  fork(): VarStore {
    return new VarStore(
      this.scopes.map((s) => ({
        kind: s.kind,
        vars: s.vars.fork(),
        ...(s.tempNames === undefined ? {} : { tempNames: new Set(s.tempNames) }),
        ...(s.localNames === undefined ? {} : { localNames: new Set(s.localNames) }),
      })),
    );
  }

  dispose(): void {
    for (const s of this.scopes) s.vars.dispose();
  }

  get global(): Scope {
    return this.scopes[0] as Scope;
  }

  /** The innermost function (or global) scope: where `local` and `declare` put names. */
  get localScope(): Scope {
    for (let i = this.scopes.length - 1; i >= 0; i -= 1) {
      const s = this.scopes[i] as Scope;
      if (s.kind !== 'temp') return s;
    }
    return this.global;
  }

  /** Whether the innermost non-temporary scope is a function's. */
  get inFunction(): boolean {
    return this.localScope.kind === 'function';
  }

  push(kind: 'function' | 'temp'): Scope {
    const scope: Scope = { kind, vars: CowMap.create() };
    this.scopes.push(scope);
    return scope;
  }

  pop(): void {
    if (this.scopes.length > 1) this.scopes.pop();
  }

  /**
   * The call of a function with `v=x f`: the temporary scope on top becomes the function's own
   * scope (so `local v` there is the same binding, and an unset from a callee reveals what was
   * below). Returns how to put the temporary scope back.
   */
  adoptAsFunction(temp: Scope): () => void {
    this.scopes.pop();
    this.scopes.push({ kind: 'function', vars: temp.vars, tempNames: new Set(temp.vars.keys()) });
    return () => {
      this.scopes.pop();
      this.scopes.push(temp);
    };
  }

  /**
   * Where `local name` binds in a function: a temporary binding of `name` above the function's
   * scope (`v=x eval 'local v=y'`) if there is one, else the function's scope.
   */
  localFor(name: string): Scope {
    for (let i = this.scopes.length - 1; i >= 0; i -= 1) {
      const s = this.scopes[i] as Scope;
      if (s.kind !== 'temp') return s;
      if (s.vars.get(name) !== undefined) return this.localScope.kind === 'function' ? s : this.localScope;
    }
    return this.global;
  }

  /** `local name` bound `name` where {@link localFor} says: it is a local now, not a temporary. */
  markLocal(name: string): void {
    const scope = this.localFor(name);
    if (scope.kind !== 'temp') {
      scope.tempNames?.delete(name);
      return;
    }
    scope.localNames ??= new Set();
    scope.localNames.add(name);
  }

  /** Whether the binding of `name` in `scope` is a function's local (not a `v=x cmd` one). */
  isLocalBinding(scope: Scope, name: string): boolean {
    if (scope.kind === 'temp') return scope.localNames?.has(name) === true;
    return scope.kind === 'function' && scope.tempNames?.has(name) !== true;
  }

  /** The index of the innermost function (or global) scope. */
  get localDepth(): number {
    for (let i = this.scopes.length - 1; i >= 0; i -= 1)
      if ((this.scopes[i] as Scope).kind !== 'temp') return i;
    return 0;
  }

  /** The variable `name` itself (no nameref resolution, no scope), innermost first. */
  findVariable(name: string): Variable | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i -= 1) {
      const variable = (this.scopes[i] as Scope).vars.get(name);
      if (variable !== undefined) return variable;
    }
    return undefined;
  }

  /** The variable `name` (no nameref resolution), innermost first. */
  find(name: string): Found | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i -= 1) {
      const scope = this.scopes[i] as Scope;
      const variable = scope.vars.get(name);
      if (variable !== undefined) return { variable, scope, depth: i };
    }
    return undefined;
  }

  /** Follow namerefs from `name` (at most 8 hops; a cycle stops at the last distinct name). */
  resolveName(name: string): string {
    // The common case, without allocating: the name is no reference.
    const first = this.findVariable(name);
    if (first === undefined || !(first.attrs & ATTR_NAMEREF)) return name;
    let current = name;
    const seen = new Set<string>([current]);
    for (let i = 0; i < 8; i += 1) {
      const f = this.find(current);
      if (f === undefined || !(f.variable.attrs & ATTR_NAMEREF)) return current;
      const target = f.variable.value;
      // A value that names no variable (`#`, `1`) is read as the reference's own value.
      if (typeof target !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/s.test(target)) return current;
      const base = target.replace(/\[.*$/s, '');
      if (seen.has(base)) return CIRCULAR;
      seen.add(base);
      current = target;
      if (current !== base) return current;
    }
    return current;
  }

  /** A variable in `scope` that may be mutated in place (cloned if inherited). */
  mutable(scope: Scope, name: string): Variable | undefined {
    return scope.vars.mutable(name, cloneVariable);
  }

  /** Set (or create) `name` in exactly `scope`. */
  put(scope: Scope, name: string, variable: Variable): void {
    scope.vars.set(name, variable);
  }

  remove(scope: Scope, name: string): void {
    scope.vars.delete(name);
  }

  /** Every visible name (innermost binding wins). */
  names(): string[] {
    const seen = new Set<string>();
    for (let i = this.scopes.length - 1; i >= 0; i -= 1) {
      for (const name of (this.scopes[i] as Scope).vars.keys()) seen.add(name);
    }
    return [...seen];
  }
}
