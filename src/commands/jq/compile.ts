/**
 * The compiler: the program's tree becomes {@link Filter}s (closures over lazy generators), with
 * every name resolved at compile time. Variables, closure parameters, local functions and labels
 * live in a runtime {@link Env} chain, one node per binding, so a reference is a hop count; the
 * program's top-level definitions and the built-ins are resolved directly. Undefined names and
 * labels are compile errors with jq's wording (`$bar is not defined`, `f/1 is not defined`).
 * @module
 */
import type { FuncDef, Node, Pattern } from './ast.js';
import { dumpTruncated } from './error-text.js';
import { formatLocated, JqBreak, JqCompileError, JqError } from './errors.js';
import { applyFormat } from './formats.js';
import { type NativeDef, NOTHING, type Nothing, rt } from './native.js';
import { add, BINARY, indexValue, iterateError, negate, sliceValue } from './ops.js';
import {
  Closure,
  type CompiledFunction,
  Env,
  type Filter,
  type FunctionBinding,
  LabelMark,
  type Out,
  type PathOut,
  type PathStep,
  ROOT_ENV,
  SUSPEND,
} from './runtime.js';
import { isTruthy, type JqObject, kindOf, type Value } from './value.js';

type Path = readonly Value[] | null;

/** What a name means in the lexical scope. */
type Binding =
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'closure'; readonly name: string }
  | { readonly kind: 'func'; readonly name: string; readonly arity: number; readonly fn: CompiledFunction }
  | { readonly kind: 'label'; readonly name: string }
  /** A user function's activation record (for its tail calls). */
  | { readonly kind: 'slot'; readonly fn: CompiledFunction };

/** While compiling a function body: the function whose calls in tail position become loops. */
interface TailContext {
  readonly fn: CompiledFunction;
}

class Scope {
  constructor(
    readonly parent: Scope | null,
    readonly binding: Binding,
  ) {}
}

/** A global function: a definition compiled at the top level, or a native. */
export type GlobalFunction =
  | { readonly kind: 'user'; readonly fn: CompiledFunction; readonly params: readonly boolean[] }
  | { readonly kind: 'native'; readonly def: NativeDef };

/** Global functions by `name/arity`, layered so a later definition shadows without rebinding. */
export class FunctionTable {
  private readonly own = new Map<string, GlobalFunction>();

  constructor(private readonly parent: FunctionTable | null) {}

  get(key: string): GlobalFunction | undefined {
    return this.own.get(key) ?? this.parent?.get(key);
  }

  set(key: string, f: GlobalFunction): void {
    this.own.set(key, f);
  }

  /** Every `name/arity` visible, innermost first. */
  keys(): string[] {
    const seen = new Set<string>();
    for (let t: FunctionTable | null = this; t !== null; t = t.parent)
      for (const k of t.own.keys()) seen.add(k);
    return [...seen];
  }
}

export interface CompileOptions {
  readonly src: string;
  /** `<top-level>` or a module's path, for messages. */
  readonly file: string;
  /** Names of global variables (`ENV`, `__loc__` is syntax, `--arg` names, ...). */
  readonly globalVars: ReadonlySet<string>;
  /** `$name::name` and `$name` of the program's data imports (shadowed by local variables). */
  readonly constants?: ReadonlyMap<string, Value> | undefined;
}

/** Compile errors collected while compiling one program. */
class Errors {
  readonly list: string[] = [];
}

export class Compiler {
  private readonly errors = new Errors();

  constructor(private readonly opts: CompileOptions) {}

  /**
   * Compile `node` (a whole program body or a library's definitions) against `table`. Top-level
   * definitions are added to a new layer of the table, returned with the filter.
   */
  compileTop(node: Node, table: FunctionTable): { filter: Filter; table: FunctionTable } {
    let t = table;
    let n = node;
    while (n.t === 'FuncDef') {
      t = new FunctionTable(t);
      this.defineGlobal(n.def, t);
      n = n.rest;
    }
    const filter = this.compile(n, null, t);
    if (this.errors.list.length > 0) {
      const count = this.errors.list.length;
      throw new JqCompileError(this.errors.list.join('\n'), count);
    }
    return { filter, table: t };
  }

  private error(msg: string, start: number, end: number): void {
    this.errors.list.push(formatLocated(msg, this.opts.src, this.opts.file, start, end));
  }

  private defineGlobal(def: FuncDef, table: FunctionTable): void {
    const fn = newFunction(def);
    table.set(`${def.name}/${fn.arity}`, { kind: 'user', fn, params: fn.valueParams });
    fn.body = this.compileFunctionBody(def, null, table, fn);
  }

  /**
   * A function body in the scope of its activation slot and parameters (closures), `$params`
   * bound on top. Calls to the function itself in tail position compile to loops.
   */
  private compileFunctionBody(
    def: FuncDef,
    outer: Scope | null,
    table: FunctionTable,
    fn: CompiledFunction,
  ): Filter {
    let scope: Scope | null = new Scope(outer, { kind: 'slot', fn });
    for (const p of def.params) scope = new Scope(scope, { kind: 'closure', name: p.name });
    const varParams = def.params.filter((p) => p.isVar);
    const tail: TailContext = { fn };
    if (varParams.length === 0) return this.compile(def.body, scope, table, tail);
    // `def f($a): body` is `def f(a): a as $a | body`.
    let inner = scope;
    const sources: Filter[] = [];
    for (const p of varParams) {
      sources.push(this.closureCall(p.name, inner, def.start, def.end) as Filter);
      inner = new Scope(inner, { kind: 'var', name: p.name });
    }
    const body = this.compile(def.body, inner, table, tail);
    return bindValues(sources, body);
  }

  private closureCall(name: string, scope: Scope | null, start: number, end: number): Filter | undefined {
    let hops = 0;
    for (let s = scope; s !== null; s = s.parent, hops += 1) {
      const b = s.binding;
      if (b.kind === 'closure' && b.name === name) return closureCallFilter(hops);
    }
    this.error(`${name}/0 is not defined`, start, end);
    return undefined;
  }

  compile(node: Node, scope: Scope | null, table: FunctionTable, tail?: TailContext): Filter {
    switch (node.t) {
      case 'Identity':
        return IDENTITY;
      case 'RecurseAll':
        return this.call(
          { t: 'Call', name: 'recurse', args: [], start: node.start, end: node.end },
          scope,
          table,
        );
      case 'Literal':
        return constant(node.value);
      case 'Loc':
        return constant(
          new Map<string, Value>([
            ['file', this.opts.file],
            ['line', node.line],
          ]),
        );
      case 'Str':
        return this.string(node.parts, node.format, scope, table);
      case 'Format': {
        const name = node.name;
        this.checkFormat(name, node.start, node.end);
        return mapOne((x) => applyFormat(name, x));
      }
      case 'Index':
        return indexFilter(this.compile(node.target, scope, table), this.compile(node.index, scope, table));
      case 'Slice':
        return sliceFilter(
          this.compile(node.target, scope, table),
          node.from === null ? constant(null) : this.compile(node.from, scope, table),
          node.to === null ? constant(null) : this.compile(node.to, scope, table),
        );
      case 'Iterate':
        return iterateFilter(this.compile(node.target, scope, table));
      case 'Collect':
        return node.body === null
          ? constantFresh(() => [])
          : collectFilter(this.compile(node.body, scope, table));
      case 'Object':
        return this.object(node, scope, table);
      case 'Neg':
        return mapFilter(this.compile(node.body, scope, table), negate);
      case 'Pipe': {
        const left = this.compile(node.left, scope, table);
        return pipeFilter(
          left,
          this.compile(node.right, scope, table, left.one !== undefined ? tail : undefined),
        );
      }
      case 'Comma':
        return commaFilter(
          this.compile(node.left, scope, table),
          this.compile(node.right, scope, table, tail),
        );
      case 'Binary':
        return binaryFilter(
          this.compile(node.left, scope, table),
          this.compile(node.right, scope, table),
          BINARY[node.op] as (a: Value, b: Value) => Value,
        );
      case 'And':
        return andOrFilter(
          this.compile(node.left, scope, table),
          this.compile(node.right, scope, table),
          true,
        );
      case 'Or':
        return andOrFilter(
          this.compile(node.left, scope, table),
          this.compile(node.right, scope, table),
          false,
        );
      case 'Alt':
        return altFilter(this.compile(node.left, scope, table), this.compile(node.right, scope, table));
      case 'Assign':
        return this.assign(node.op, node.left, node.right, scope, table, node.start, node.end);
      case 'If': {
        const cond = this.compile(node.cond, scope, table);
        const branchTail = cond.one !== undefined ? tail : undefined;
        return ifFilter(
          cond,
          this.compile(node.then, scope, table, branchTail),
          node.otherwise === null ? IDENTITY : this.compile(node.otherwise, scope, table, branchTail),
        );
      }
      case 'Try':
        return tryFilter(
          this.compile(node.body, scope, table),
          node.handler === null ? null : this.compile(node.handler, scope, table),
        );
      case 'Reduce':
      case 'Foreach':
        return this.fold(node, scope, table);
      case 'FuncDef': {
        if (scope === null) {
          const t = new FunctionTable(table);
          this.defineGlobal(node.def, t);
          return this.compile(node.rest, null, t, tail);
        }
        const fn = newFunction(node.def);
        const fnScope = new Scope(scope, { kind: 'func', name: fn.name, arity: fn.arity, fn });
        fn.body = this.compileFunctionBody(node.def, fnScope, table, fn);
        return defineLocal(fn, this.compile(node.rest, fnScope, table, tail));
      }
      case 'Call':
        return this.call(node, scope, table, tail);
      case 'Var':
        return this.variable(node.name, scope, node.start, node.end);
      case 'Bind':
        return this.bind(node.source, node.patterns, node.body, scope, table, tail);
      case 'Label': {
        const inner = new Scope(scope, { kind: 'label', name: node.name });
        return labelFilter(this.compile(node.body, inner, table));
      }
      case 'Break': {
        let hops = 0;
        for (let s = scope; s !== null; s = s.parent, hops += 1) {
          if (s.binding.kind === 'label' && s.binding.name === node.name) return breakFilter(hops);
        }
        this.error(`$*label-${node.name} is not defined`, node.start, node.end);
        return IDENTITY;
      }
    }
  }

  private checkFormat(name: string, start: number, end: number): void {
    if (!FORMAT_NAMES.has(name)) this.error(`${name} is not a valid format`, start, end);
  }

  private string(
    parts: readonly (string | Node)[],
    format: string | null,
    scope: Scope | null,
    table: FunctionTable,
  ): Filter {
    if (format !== null) this.checkFormat(format, 0, 0);
    const fmt = format ?? 'text';
    const compiled = parts.map((p) => (typeof p === 'string' ? p : this.compile(p, scope, table)));
    if (compiled.every((p) => typeof p === 'string')) return constant((compiled as string[]).join(''));
    return stringFilter(compiled, fmt);
  }

  private object(node: Node & { t: 'Object' }, scope: Scope | null, table: FunctionTable): Filter {
    const entries = node.entries.map((e) => {
      const key = this.compile(e.key, scope, table);
      if (e.key.t === 'Literal' && typeof e.key.value !== 'string') {
        this.error(
          `Cannot use ${kindOf(e.key.value)} (${dumpTruncated(e.key.value)}) as object key`,
          e.key.start,
          e.key.end,
        );
      }
      return { key, value: this.compile(e.value, scope, table) };
    });
    return objectFilter(entries);
  }

  private variable(name: string, scope: Scope | null, start: number, end: number): Filter {
    let hops = 0;
    for (let s = scope; s !== null; s = s.parent, hops += 1) {
      if (s.binding.kind === 'var' && s.binding.name === name) return varFilter(hops);
    }
    const c = this.opts.constants?.get(name);
    if (c !== undefined) return constant(c);
    if (this.opts.globalVars.has(name)) return globalVarFilter(name);
    this.error(`$${name} is not defined`, start, end);
    return CONSTANT_NULL;
  }

  private call(
    node: Node & { t: 'Call' },
    scope: Scope | null,
    table: FunctionTable,
    tail?: TailContext,
  ): Filter {
    const { name, args } = node;
    const arity = args.length;
    let hops = 0;
    for (let s = scope; s !== null; s = s.parent, hops += 1) {
      const b = s.binding;
      if (b.kind === 'closure' && b.name === name && arity === 0) return closureCallFilter(hops);
      if (b.kind === 'func' && b.name === name && b.arity === arity) {
        const argFilters = args.map((a) => this.compile(a, scope, table));
        if (tail?.fn === b.fn) return this.tailCall(b.fn, scope, hops, argFilters);
        return localCallFilter(b.fn, hops, argFilters);
      }
    }
    const g = table.get(`${name}/${arity}`);
    if (g === undefined) {
      this.error(`${name}/${arity} is not defined`, node.start, node.end);
      return IDENTITY;
    }
    const argFilters = args.map((a) => this.compile(a, scope, table));
    if (g.kind === 'user') {
      if (tail?.fn === g.fn) return this.tailCall(g.fn, scope, null, argFilters);
      return globalCallFilter(g.fn, argFilters);
    }
    return nativeCallFilter(g.def, argFilters);
  }

  /** A call of `fn` in tail position within its own body: the activation loops instead of nesting. */
  private tailCall(
    fn: CompiledFunction,
    scope: Scope | null,
    baseHops: number | null,
    args: readonly Filter[],
  ): Filter {
    let slotHops = 0;
    for (let s = scope; s !== null; s = s.parent, slotHops += 1) {
      if (s.binding.kind === 'slot' && s.binding.fn === fn) break;
    }
    fn.hasTailCalls = true;
    return tailCallFilter(fn, slotHops, baseHops, args);
  }

  private assign(
    op: string,
    left: Node,
    right: Node,
    scope: Scope | null,
    table: FunctionTable,
    start: number,
    end: number,
  ): Filter {
    const lhs = this.compile(left, scope, table);
    const rhs = this.compile(right, scope, table);
    const native = (key: string): NativeDef => {
      const g = table.get(key);
      if (g === undefined || g.kind !== 'native')
        throw JqCompileError.at(`${key} is not defined`, this.opts.src, this.opts.file, start, end);
      return g.def;
    };
    switch (op) {
      case '=':
        return nativeCallFilter(native('_assign/2'), [lhs, rhs]);
      case '|=':
        return nativeCallFilter(native('_modify/2'), [lhs, rhs]);
      case '//=':
        return nativeCallFilter(native('_alt_assign/2'), [lhs, rhs]);
      default: {
        const fn = BINARY[op.slice(0, -1)] as (a: Value, b: Value) => Value;
        return arithmeticUpdateFilter(native('_modify/2'), lhs, rhs, fn);
      }
    }
  }

  /** Variables bound by patterns (every alternative's, in order of first appearance). */
  private patternVars(patterns: readonly Pattern[]): string[] {
    const names: string[] = [];
    const visit = (p: Pattern): void => {
      if (p.t === 'PVar') {
        if (!names.includes(p.name)) names.push(p.name);
      } else if (p.t === 'PArray') p.items.forEach(visit);
      else
        for (const e of p.entries) {
          if (e.bindVar !== null && !names.includes(e.bindVar)) names.push(e.bindVar);
          if (e.pattern !== null) visit(e.pattern);
        }
    };
    patterns.forEach(visit);
    return names;
  }

  private compilePatterns(
    patterns: readonly Pattern[],
    scope: Scope | null,
    table: FunctionTable,
  ): { matchers: Matcher[]; inner: Scope | null; count: number } {
    const names = this.patternVars(patterns);
    let inner = scope;
    for (const n of names) inner = new Scope(inner, { kind: 'var', name: n });
    const slot = (name: string): number => names.indexOf(name);
    const build = (p: Pattern): Matcher => {
      if (p.t === 'PVar') return { t: 'var', slot: slot(p.name) };
      if (p.t === 'PArray') return { t: 'array', items: p.items.map(build) };
      return {
        t: 'object',
        entries: p.entries.map((e) => {
          if (e.key.t === 'Literal' && typeof e.key.value !== 'string') {
            this.error(
              `Cannot use ${kindOf(e.key.value)} (${dumpTruncated(e.key.value)}) as object key`,
              e.key.start,
              e.key.end,
            );
          }
          return {
            // Keys see the scope outside the pattern (and the value being destructured as `.`).
            key: this.compile(e.key, scope, table),
            bindSlot: e.bindVar === null ? -1 : slot(e.bindVar),
            sub: e.pattern === null ? null : build(e.pattern),
          };
        }),
      };
    };
    return { matchers: patterns.map(build), inner, count: names.length };
  }

  private bind(
    source: Node,
    patterns: readonly Pattern[],
    body: Node,
    scope: Scope | null,
    table: FunctionTable,
    tail?: TailContext,
  ): Filter {
    const src = this.compile(source, scope, table);
    if (patterns.length === 1 && (patterns[0] as Pattern).t === 'PVar') {
      const inner = new Scope(scope, { kind: 'var', name: (patterns[0] as Pattern & { t: 'PVar' }).name });
      return bindSimple(src, this.compile(body, inner, table, src.one !== undefined ? tail : undefined));
    }
    const { matchers, inner, count } = this.compilePatterns(patterns, scope, table);
    return bindPatterns(src, matchers, count, this.compile(body, inner, table));
  }

  private fold(node: Node & { t: 'Reduce' | 'Foreach' }, scope: Scope | null, table: FunctionTable): Filter {
    const src = this.compile(node.source, scope, table);
    const init = this.compile(node.init, scope, table);
    const { matchers, inner, count } = this.compilePatterns(node.patterns, scope, table);
    const update = this.compile(node.update, inner, table);
    if (node.t === 'Reduce') {
      const right = appendOperand(node.update);
      const append = right === undefined ? undefined : this.compile(right, inner, table);
      return reduceFilter(src, matchers, count, init, update, append);
    }
    const extract = node.extract === null ? null : this.compile(node.extract, inner, table);
    return foreachFilter(src, matchers, count, init, update, extract);
  }
}

const FORMAT_NAMES: ReadonlySet<string> = new Set([
  'text',
  'json',
  'html',
  'uri',
  'urid',
  'csv',
  'tsv',
  'sh',
  'base64',
  'base64d',
  'base32',
  'base32d',
]);

// ---------------------------------------------------------------------------------------------
// Filters

const EMPTY_ITER: Iterator<never, void, undefined> = { next: () => ({ done: true, value: undefined }) };

/** Path mode for a filter that only computes values: a result is at a path only if it is the input itself. */
function valuePaths(run: Filter['run']): Filter['paths'] {
  return function* (input, path, env) {
    for (const v of iter(run(input, env))) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      yield { v, p: v === input && path !== null ? path : null };
    }
  };
}

/** Iterate an Iterator with for-of. */
function iter<T>(it: Iterator<T, void, undefined>): Iterable<T> {
  return { [Symbol.iterator]: () => it };
}

function makeFilter(
  run: Filter['run'],
  options: { paths?: Filter['paths']; one?: Filter['one']; usesInput?: boolean; opt?: OptFn } = {},
): Filter & { opt?: OptFn } {
  return {
    run,
    paths: options.paths ?? valuePaths(run),
    one: options.one,
    usesInput: options.usesInput ?? true,
    opt: options.opt,
  };
}

type OptFn = (input: Value, env: Env) => Value | Nothing;

function optOf(f: Filter): OptFn | undefined {
  return (f as Filter & { opt?: OptFn }).opt;
}

function singleIter(v: Value): Iterator<Out, void, undefined> {
  let done = false;
  return {
    next: () => {
      if (done) return { done: true, value: undefined };
      done = true;
      return { done: false, value: v };
    },
  };
}

/** A filter from a single-output function (the generator comes for free). */
function fromOne(one: (input: Value, env: Env) => Value, usesInput = true): Filter {
  return makeFilter((input, env) => singleIter(one(input, env)), { one, usesInput });
}

export const IDENTITY: Filter = {
  run: (input) => singleIter(input),
  paths: (input, path) => {
    let done = false;
    return {
      next: () => {
        if (done) return { done: true, value: undefined };
        done = true;
        return { done: false, value: { v: input, p: path } };
      },
    };
  },
  one: (input) => input,
  usesInput: true,
};

function constant(v: Value): Filter {
  return fromOne(() => v, false);
}

/** A constant that must be a fresh value each time (an empty array that may be changed in place). */
function constantFresh(make: () => Value): Filter {
  return fromOne(make, false);
}

const CONSTANT_NULL = constant(null);

function mapOne(fn: (x: Value) => Value): Filter {
  return fromOne((x) => fn(x));
}

function mapFilter(body: Filter, fn: (x: Value) => Value): Filter {
  const bodyOne = body.one;
  if (bodyOne !== undefined) return fromOne((x, env) => fn(bodyOne(x, env)), body.usesInput);
  return makeFilter(
    function* (input, env) {
      for (const v of iter(body.run(input, env))) yield v === SUSPEND ? v : fn(v);
    },
    { usesInput: body.usesInput },
  );
}

function indexFilter(target: Filter, index: Filter): Filter {
  const t1 = target.one;
  const i1 = index.one;
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    for (const k of iter(index.run(input, env))) {
      if (k === SUSPEND) {
        yield k;
        continue;
      }
      for (const t of iter(target.run(input, env))) {
        if (t === SUSPEND) {
          yield t;
          continue;
        }
        yield indexValue(t, k);
      }
    }
  };
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    for (const k of iter(index.run(input, env))) {
      if (k === SUSPEND) {
        yield k;
        continue;
      }
      for (const t of iter(target.paths(input, path, env))) {
        if (t === SUSPEND) {
          yield t;
          continue;
        }
        if (t.p === null) {
          throw new JqError(
            `Invalid path expression near attempt to access element ${dumpTruncated(k, 30)} of ${dumpTruncated(t.v, 30)}`,
          );
        }
        yield { v: t.v === null ? null : indexValue(t.v, k), p: [...t.p, k] };
      }
    }
  };
  const usesInput = target.usesInput || index.usesInput;
  if (t1 !== undefined && i1 !== undefined) {
    return makeFilter((input, env) => singleIter(indexValue(t1(input, env), i1(input, env))), {
      paths,
      one: (input, env) => {
        const k = i1(input, env);
        return indexValue(t1(input, env), k);
      },
      usesInput,
    });
  }
  return makeFilter(run, { paths, usesInput });
}

function sliceFilter(target: Filter, from: Filter, to: Filter): Filter {
  const key = objectFilter([
    { key: constant('start'), value: from },
    { key: constant('end'), value: to },
  ]);
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    for (const k of iter(key.run(input, env))) {
      if (k === SUSPEND) {
        yield k;
        continue;
      }
      const o = k as JqObject;
      for (const t of iter(target.run(input, env))) {
        if (t === SUSPEND) {
          yield t;
          continue;
        }
        if (t !== null && !Array.isArray(t) && typeof t !== 'string') {
          throw new JqError(`Cannot index ${kindOf(t)} with object`);
        }
        yield sliceValue(t, o.get('start') as Value, o.get('end') as Value);
      }
    }
  };
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    for (const k of iter(key.run(input, env))) {
      if (k === SUSPEND) {
        yield k;
        continue;
      }
      const o = k as JqObject;
      for (const t of iter(target.paths(input, path, env))) {
        if (t === SUSPEND) {
          yield t;
          continue;
        }
        if (t.p === null) {
          throw new JqError(
            `Invalid path expression near attempt to access element ${dumpTruncated(k, 30)} of ${dumpTruncated(t.v, 30)}`,
          );
        }
        yield { v: sliceValue(t.v, o.get('start') as Value, o.get('end') as Value), p: [...t.p, k] };
      }
    }
  };
  return makeFilter(run, { paths });
}

function iterateFilter(target: Filter): Filter {
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    for (const t of iter(target.run(input, env))) {
      if (t === SUSPEND) {
        yield t;
        continue;
      }
      if (Array.isArray(t)) {
        const r = rt();
        for (let i = 0; i < t.length; i += 1) {
          if (r.tick()) yield SUSPEND;
          yield t[i] as Value;
        }
      } else if (t instanceof Map) {
        const r = rt();
        for (const v of t.values()) {
          if (r.tick()) yield SUSPEND;
          yield v;
        }
      } else throw iterateError(t);
    }
  };
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    for (const t of iter(target.paths(input, path, env))) {
      if (t === SUSPEND) {
        yield t;
        continue;
      }
      const v = t.v;
      if (t.p === null)
        throw new JqError(`Invalid path expression near attempt to iterate through ${dumpTruncated(v, 30)}`);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i += 1) yield { v: v[i] as Value, p: [...t.p, i] };
      } else if (v instanceof Map) {
        for (const [k, x] of v) yield { v: x, p: [...t.p, k] };
      } else if (v !== null) throw iterateError(v);
    }
  };
  return makeFilter(run, { paths, usesInput: target.usesInput });
}

function collectFilter(body: Filter): Filter {
  const bodyOne = body.one;
  if (bodyOne !== undefined) return fromOne((x, env) => [bodyOne(x, env)], body.usesInput);
  const limit = (): number => rt().limits.maxArrayLength;
  return makeFilter(
    function* (input, env) {
      const out: Value[] = [];
      const max = limit();
      for (const v of iter(body.run(input, env))) {
        if (v === SUSPEND) {
          yield v;
          continue;
        }
        if (out.length >= max) throw new JqError('Array too large');
        out.push(v);
      }
      yield out;
    },
    { usesInput: body.usesInput },
  );
}

interface EntryFilter {
  readonly key: Filter;
  readonly value: Filter;
}

function objectFilter(entries: readonly EntryFilter[]): Filter {
  const usesInput = entries.some((e) => e.key.usesInput || e.value.usesInput);
  const checkKey = (k: Value): string => {
    if (typeof k !== 'string')
      throw new JqError(`Cannot use ${kindOf(k)} (${dumpTruncated(k)}) as object key`);
    return k;
  };
  if (entries.every((e) => e.key.one !== undefined && e.value.one !== undefined)) {
    const ones = entries.map((e) => ({
      k: e.key.one as NonNullable<Filter['one']>,
      v: e.value.one as NonNullable<Filter['one']>,
    }));
    return fromOne((input, env) => {
      const o: JqObject = new Map();
      for (const e of ones) {
        const k = checkKey(e.k(input, env));
        o.set(k, e.v(input, env));
      }
      return o;
    }, usesInput);
  }
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    // Cartesian product: the first entry varies slowest.
    const keys: string[] = [];
    const vals: Value[] = [];
    function* fill(i: number): Generator<Out, void, undefined> {
      if (i === entries.length) {
        const o: JqObject = new Map();
        for (let j = 0; j < keys.length; j += 1) o.set(keys[j] as string, vals[j] as Value);
        yield o;
        return;
      }
      const e = entries[i] as EntryFilter;
      for (const k of iter(e.key.run(input, env))) {
        if (k === SUSPEND) {
          yield k;
          continue;
        }
        keys[i] = checkKey(k);
        for (const v of iter(e.value.run(input, env))) {
          if (v === SUSPEND) {
            yield v;
            continue;
          }
          vals[i] = v;
          yield* fill(i + 1);
        }
      }
    }
    yield* fill(0);
  };
  return makeFilter(run, { usesInput });
}

function pipeFilter(left: Filter, right: Filter): Filter {
  const l1 = left.one;
  const r1 = right.one;
  const usesInput = left.usesInput;
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    for (const a of iter(left.paths(input, path, env))) {
      if (a === SUSPEND) {
        yield a;
        continue;
      }
      yield* iter(right.paths(a.v, a.p, env));
    }
  };
  if (l1 !== undefined && r1 !== undefined) {
    return makeFilter((input, env) => singleIter(r1(l1(input, env), env)), {
      paths,
      one: (input, env) => r1(l1(input, env), env),
      usesInput: left.usesInput,
    });
  }
  const rOpt = optOf(right);
  const lOpt = optOf(left);
  if (l1 !== undefined) {
    return makeFilter((input, env) => right.run(l1(input, env), env), {
      paths,
      usesInput,
      opt: rOpt === undefined ? undefined : (input, env) => rOpt(l1(input, env), env),
    });
  }
  if (rOpt !== undefined) {
    return makeFilter(
      function* (input, env) {
        for (const a of iter(left.run(input, env))) {
          if (a === SUSPEND) {
            yield a;
            continue;
          }
          const b = rOpt(a, env);
          if (b !== NOTHING) yield b;
        }
      },
      {
        paths,
        usesInput,
        opt:
          lOpt === undefined
            ? undefined
            : (input, env) => {
                const a = lOpt(input, env);
                return a === NOTHING ? NOTHING : rOpt(a, env);
              },
      },
    );
  }
  return makeFilter(
    function* (input, env) {
      for (const a of iter(left.run(input, env))) {
        if (a === SUSPEND) {
          yield a;
          continue;
        }
        yield* iter(right.run(a, env));
      }
    },
    { paths, usesInput },
  );
}

function commaFilter(left: Filter, right: Filter): Filter {
  return makeFilter(
    function* (input, env) {
      yield* iter(left.run(input, env));
      yield* iter(right.run(input, env));
    },
    {
      paths: function* (input, path, env) {
        yield* iter(left.paths(input, path, env));
        yield* iter(right.paths(input, path, env));
      },
      usesInput: left.usesInput || right.usesInput,
    },
  );
}

function binaryFilter(left: Filter, right: Filter, fn: (a: Value, b: Value) => Value): Filter {
  const l1 = left.one;
  const r1 = right.one;
  const usesInput = left.usesInput || right.usesInput;
  if (l1 !== undefined && r1 !== undefined) {
    return fromOne((input, env) => {
      const b = r1(input, env);
      return fn(l1(input, env), b);
    }, usesInput);
  }
  return makeFilter(
    function* (input, env) {
      // The right operand is the outer loop, as in jq: `(1,2) + (10,20)` is 11, 12, 21, 22.
      for (const b of iter(right.run(input, env))) {
        if (b === SUSPEND) {
          yield b;
          continue;
        }
        for (const a of iter(left.run(input, env))) {
          if (a === SUSPEND) {
            yield a;
            continue;
          }
          yield fn(a, b);
        }
      }
    },
    { usesInput },
  );
}

function andOrFilter(left: Filter, right: Filter, isAnd: boolean): Filter {
  const l1 = left.one;
  const r1 = right.one;
  const usesInput = left.usesInput || right.usesInput;
  if (l1 !== undefined && r1 !== undefined) {
    return fromOne((input, env) => {
      const a = isTruthy(l1(input, env));
      if (isAnd ? !a : a) return a;
      return isTruthy(r1(input, env));
    }, usesInput);
  }
  return makeFilter(
    function* (input, env) {
      for (const a of iter(left.run(input, env))) {
        if (a === SUSPEND) {
          yield a;
          continue;
        }
        const ta = isTruthy(a);
        if (isAnd ? !ta : ta) {
          yield ta;
          continue;
        }
        for (const b of iter(right.run(input, env))) {
          if (b === SUSPEND) {
            yield b;
            continue;
          }
          yield isTruthy(b);
        }
      }
    },
    { usesInput },
  );
}

function altFilter(left: Filter, right: Filter): Filter {
  const l1 = left.one;
  const r1 = right.one;
  const usesInput = left.usesInput || right.usesInput;
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    let found = false;
    try {
      for (const a of iter(left.run(input, env))) {
        if (a === SUSPEND) {
          yield a;
          continue;
        }
        if (isTruthy(a)) {
          found = true;
          yield a;
        }
      }
    } catch (error) {
      if (!(error instanceof JqError)) throw error;
    }
    if (!found) yield* iter(right.run(input, env));
  };
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    let found = false;
    try {
      for (const a of iter(left.paths(input, path, env))) {
        if (a === SUSPEND) {
          yield a;
          continue;
        }
        if (isTruthy(a.v)) {
          found = true;
          yield a;
        }
      }
    } catch (error) {
      if (!(error instanceof JqError)) throw error;
    }
    if (!found) yield* iter(right.paths(input, path, env));
  };
  if (l1 !== undefined && r1 !== undefined) {
    return makeFilter(run, {
      paths,
      one: (input, env) => {
        try {
          const a = l1(input, env);
          if (isTruthy(a)) return a;
        } catch (error) {
          if (!(error instanceof JqError)) throw error;
        }
        return r1(input, env);
      },
      usesInput,
    });
  }
  return makeFilter(run, { paths, usesInput });
}

function ifFilter(cond: Filter, then: Filter, otherwise: Filter): Filter {
  const c1 = cond.one;
  const t1 = then.one;
  const e1 = otherwise.one;
  const usesInput = cond.usesInput || then.usesInput || otherwise.usesInput;
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    for (const c of iter(cond.run(input, env))) {
      if (c === SUSPEND) {
        yield c;
        continue;
      }
      yield* iter((isTruthy(c) ? then : otherwise).run(input, env));
    }
  };
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    for (const c of iter(cond.run(input, env))) {
      if (c === SUSPEND) {
        yield c;
        continue;
      }
      yield* iter((isTruthy(c) ? then : otherwise).paths(input, path, env));
    }
  };
  if (c1 !== undefined && t1 !== undefined && e1 !== undefined) {
    return makeFilter(run, {
      paths,
      one: (input, env) => (isTruthy(c1(input, env)) ? t1(input, env) : e1(input, env)),
      usesInput,
    });
  }
  if (c1 !== undefined) {
    // A single condition: no generator of our own (recursion through `if` costs no stack).
    return makeFilter((input, env) => (isTruthy(c1(input, env)) ? then : otherwise).run(input, env), {
      paths: (input, path, env) => (isTruthy(c1(input, env)) ? then : otherwise).paths(input, path, env),
      usesInput,
      opt: ifOpt(c1, t1 ?? optOf(then), e1 ?? optOf(otherwise)),
    });
  }
  return makeFilter(run, { paths, usesInput });
}

function ifOpt(
  c1: NonNullable<Filter['one']>,
  tOpt: OptFn | undefined,
  eOpt: OptFn | undefined,
): OptFn | undefined {
  if (tOpt === undefined || eOpt === undefined) return undefined;
  return (input, env) => (isTruthy(c1(input, env)) ? tOpt(input, env) : eOpt(input, env));
}

function tryFilter(body: Filter, handler: Filter | null): Filter {
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    let caught: JqError;
    try {
      yield* iter(body.run(input, env));
      return;
    } catch (error) {
      if (!(error instanceof JqError)) throw error;
      caught = error;
    }
    if (handler !== null) yield* iter(handler.run(caughtValue(caught), env));
  };
  const paths = function* (input: Value, path: Path, env: Env): Generator<PathStep, void, undefined> {
    let caught: JqError;
    try {
      yield* iter(body.paths(input, path, env));
      return;
    } catch (error) {
      if (!(error instanceof JqError)) throw error;
      caught = error;
    }
    if (handler !== null) yield* iter(handler.paths(caughtValue(caught), null, env));
  };
  const b1 = body.one;
  const opt: OptFn | undefined =
    b1 !== undefined && handler === null
      ? (input, env) => {
          try {
            return b1(input, env);
          } catch (error) {
            if (!(error instanceof JqError)) throw error;
            return NOTHING;
          }
        }
      : undefined;
  return makeFilter(run, { paths, usesInput: body.usesInput || (handler?.usesInput ?? false), opt });
}

/** What `catch` receives: the error's value (a `break` is never caught). */
function caughtValue(e: JqError): Value {
  return e.value;
}

function stringFilter(parts: readonly (string | Filter)[], format: string): Filter {
  const usesInput = parts.some((p) => typeof p !== 'string' && p.usesInput);
  const piece = (v: Value): string => applyFormat(format, v) as string;
  if (parts.every((p) => typeof p === 'string' || p.one !== undefined)) {
    return fromOne((input, env) => {
      let out = '';
      for (const p of parts)
        out += typeof p === 'string' ? p : piece((p.one as NonNullable<Filter['one']>)(input, env));
      return out;
    }, usesInput);
  }
  return makeFilter((input, env) => fillReverse(parts, input, env, piece), { usesInput });
}

/**
 * jq builds `"a\(x)b\(y)"` as `(("a" + x) + "b") + y` with the right operand of `+` as the outer
 * loop, so the last interpolation varies slowest.
 */
function* fillReverse(
  parts: readonly (string | Filter)[],
  input: Value,
  env: Env,
  piece: (v: Value) => string,
): Generator<Out, void, undefined> {
  const texts: string[] = new Array(parts.length).fill('');
  function* fill(i: number): Generator<Out, void, undefined> {
    if (i < 0) {
      yield texts.join('');
      return;
    }
    const p = parts[i] as string | Filter;
    if (typeof p === 'string') {
      texts[i] = p;
      yield* fill(i - 1);
      return;
    }
    for (const v of iter(p.run(input, env))) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      texts[i] = piece(v);
      yield* fill(i - 1);
    }
  }
  yield* fill(parts.length - 1);
}

function varFilter(hops: number): Filter {
  const one = (_: Value, env: Env): Value => env.at(hops).value as Value;
  return makeFilter((input, env) => singleIter(one(input, env)), {
    one,
    usesInput: false,
    paths: function* (input, path, env) {
      const v = one(input, env);
      yield { v, p: v === input && path !== null ? path : null };
    },
  });
}

function globalVarFilter(name: string): Filter {
  return fromOne(() => {
    const v = rt().globals.get(name);
    return v === undefined ? null : v;
  }, false);
}

function closureCallFilter(hops: number): Filter {
  return {
    run: (input, env) => {
      const c = env.at(hops).value as Closure;
      return c.filter.run(input, c.env);
    },
    paths: (input, path, env) => {
      const c = env.at(hops).value as Closure;
      return c.filter.paths(input, path, c.env);
    },
    usesInput: true,
  };
}

function callEnv(base: Env, args: readonly Filter[], env: Env): Env {
  let e = base;
  for (const a of args) e = new Env(e, new Closure(a, env));
  return e;
}

function newFunction(def: FuncDef): CompiledFunction {
  return {
    name: def.name,
    arity: def.params.length,
    body: CONSTANT_NULL,
    valueParams: def.params.map((p) => p.isVar),
    hasTailCalls: false,
  };
}

/** A function activation: where a tail call leaves the next iteration's input and environment. */
class TailSlot {
  next: { readonly input: Value; readonly env: Env } | undefined;
  /** The activation's `$param` bindings are single-valued, so a tail call really is last. */
  safe = true;
}

const NO_SLOT = new TailSlot();

function* suspendThen(make: () => Iterator<Out, void, undefined>): Generator<Out, void, undefined> {
  yield SUSPEND;
  yield* iter(make());
}

function* suspendThenPaths(
  make: () => Iterator<PathStep, void, undefined>,
): Generator<PathStep, void, undefined> {
  yield SUSPEND;
  yield* iter(make());
}

/** Whether every `$param` of the activation is bound to a single-output closure. */
function valueParamsSingle(fn: CompiledFunction, e: Env): boolean {
  const n = fn.valueParams.length;
  for (let i = 0; i < n; i += 1) {
    if (!fn.valueParams[i]) continue;
    const c = e.at(n - 1 - i).value as Closure;
    if (c.filter.one === undefined) return false;
  }
  return true;
}

/** Call a user function. The step count is checked per call, so deep recursion still lets the host in. */
function callUser(
  fn: CompiledFunction,
  base: Env,
  args: readonly Filter[],
  env: Env,
  input: Value,
): Iterator<Out, void, undefined> {
  if (fn.hasTailCalls) return loopUser(fn, base, args, env, input);
  const e = callEnv(new Env(base, NO_SLOT), args, env);
  if (rt().tick()) return suspendThen(() => fn.body.run(input, e));
  return fn.body.run(input, e);
}

/** A function with tail calls: each tail call becomes the next iteration of this loop. */
function* loopUser(
  fn: CompiledFunction,
  base: Env,
  args: readonly Filter[],
  env: Env,
  input: Value,
): Generator<Out, void, undefined> {
  const slot = new TailSlot();
  let e = callEnv(new Env(base, slot), args, env);
  let x = input;
  const r = rt();
  for (;;) {
    slot.safe = valueParamsSingle(fn, e);
    slot.next = undefined;
    if (r.tick()) yield SUSPEND;
    yield* iter(fn.body.run(x, e));
    const next = slot.next as { readonly input: Value; readonly env: Env } | undefined;
    if (next === undefined) return;
    x = next.input;
    e = next.env;
  }
}

function pathsUser(
  fn: CompiledFunction,
  base: Env,
  args: readonly Filter[],
  env: Env,
  input: Value,
  path: Path,
): Iterator<PathStep, void, undefined> {
  // No loop in path mode: a tail call there is an ordinary call (the slot is never safe).
  const slot = new TailSlot();
  slot.safe = false;
  const e = callEnv(new Env(base, slot), args, env);
  if (rt().tick()) return suspendThenPaths(() => fn.body.paths(input, path, e));
  return fn.body.paths(input, path, e);
}

function localCallFilter(fn: CompiledFunction, hops: number, args: readonly Filter[]): Filter {
  return {
    run: (input, env) => callUser(fn, env.at(hops), args, env, input),
    paths: (input, path, env) => pathsUser(fn, env.at(hops), args, env, input, path),
    usesInput: true,
  };
}

function globalCallFilter(fn: CompiledFunction, args: readonly Filter[]): Filter {
  return {
    run: (input, env) => callUser(fn, ROOT_ENV, args, env, input),
    paths: (input, path, env) => pathsUser(fn, ROOT_ENV, args, env, input, path),
    usesInput: true,
  };
}

/**
 * `fn` calling itself in tail position: record the next iteration in the activation's slot
 * (value arguments evaluated now, so iterations do not chain environments), or, when the slot
 * cannot take it, make an ordinary call.
 */
function tailCallFilter(
  fn: CompiledFunction,
  slotHops: number,
  baseHops: number | null,
  args: readonly Filter[],
): Filter {
  const ordinary = baseHops === null ? globalCallFilter(fn, args) : localCallFilter(fn, baseHops, args);
  return {
    run: (input, env) => {
      const slot = env.at(slotHops).value as TailSlot;
      if (!slot.safe || slot.next !== undefined) return ordinary.run(input, env);
      const base = baseHops === null ? ROOT_ENV : env.at(baseHops);
      let e = new Env(base, slot);
      for (let i = 0; i < args.length; i += 1) {
        const a = args[i] as Filter;
        const one = a.one;
        if (fn.valueParams[i] && one !== undefined)
          e = new Env(e, new Closure(constant(one(input, env)), ROOT_ENV));
        else e = new Env(e, new Closure(a, env));
      }
      slot.next = { input, env: e };
      return EMPTY_ITER;
    },
    paths: (input, path, env) => ordinary.paths(input, path, env),
    usesInput: true,
  };
}

function defineLocal(fn: CompiledFunction, rest: Filter): Filter {
  const binding: FunctionBinding = { fn };
  return makeFilter((input, env) => rest.run(input, new Env(env, binding)), {
    paths: (input, path, env) => rest.paths(input, path, new Env(env, binding)),
  });
}

/** A call to a native: `fn` natives get the cartesian product of their argument values. */
function nativeCallFilter(def: NativeDef, args: readonly Filter[]): Filter {
  const usesInput = !def.ignoresInput || args.some((a) => a.usesInput);
  if (def.gen !== undefined) {
    const gen = def.gen;
    const pathsFn = def.paths;
    const canOpt = def.opt !== undefined && (def.canOpt === undefined || def.canOpt(args));
    const opt: OptFn | undefined = canOpt
      ? (input, env) => (def.opt as NonNullable<NativeDef['opt']>)(input, args, env)
      : undefined;
    return makeFilter(
      (input, env) =>
        gen(
          input,
          args.map((a) => new Closure(a, env)),
        ),
      {
        paths:
          pathsFn === undefined
            ? undefined
            : (input, path, env) =>
                pathsFn(
                  input,
                  path,
                  args.map((a) => new Closure(a, env)),
                ),
        usesInput,
        opt,
      },
    );
  }
  const fn = def.fn as NonNullable<NativeDef['fn']>;
  const pathsFn = def.paths;
  if (args.length === 0) {
    return makeFilter((input) => singleIter(fn(input, NO_ARGS)), {
      one: (input) => fn(input, NO_ARGS),
      paths: pathsFn === undefined ? undefined : (input, path) => pathsFn(input, path, NO_CLOSURES),
      usesInput,
    });
  }
  const ones = args.map((a) => a.one);
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    const vals: Value[] = new Array(args.length);
    function* fill(i: number): Generator<Out, void, undefined> {
      if (i < 0) {
        yield fn(input, vals.slice());
        return;
      }
      for (const v of iter((args[i] as Filter).run(input, env))) {
        if (v === SUSPEND) {
          yield v;
          continue;
        }
        vals[i] = v;
        yield* fill(i - 1);
      }
    }
    // The last argument is the outer loop: the first varies fastest, as jq's C built-ins do.
    yield* fill(args.length - 1);
  };
  const paths =
    pathsFn === undefined
      ? undefined
      : (input: Value, path: Path, env: Env) =>
          pathsFn(
            input,
            path,
            args.map((a) => new Closure(a, env)),
          );
  if (ones.every((o) => o !== undefined)) {
    const os = ones as NonNullable<Filter['one']>[];
    const one = (input: Value, env: Env): Value => {
      const vals: Value[] = new Array(os.length);
      for (let i = os.length - 1; i >= 0; i -= 1) vals[i] = (os[i] as NonNullable<Filter['one']>)(input, env);
      return fn(input, vals);
    };
    return makeFilter((input, env) => singleIter(one(input, env)), { one, paths, usesInput });
  }
  return makeFilter(run, { paths, usesInput });
}

const NO_ARGS: readonly Value[] = [];
const NO_CLOSURES: readonly Closure[] = [];

/** `lhs op= rhs`: `rhs as $x | lhs |= . op $x`, each value of `rhs` taken against the input. */
function arithmeticUpdateFilter(
  modify: NativeDef,
  lhs: Filter,
  rhs: Filter,
  fn: (a: Value, b: Value) => Value,
): Filter {
  return makeFilter(function* (input, env) {
    for (const x of iter(rhs.run(input, env))) {
      if (x === SUSPEND) {
        yield x;
        continue;
      }
      const update = fromOne((v) => fn(v, x), false);
      yield* iter(nativeCallFilter(modify, [lhs, update]).run(input, env));
    }
  });
}

function bindValues(sources: readonly Filter[], body: Filter): Filter {
  // `a as $a | b as $b | body` for the `$params` of a function.
  let f = body;
  for (let i = sources.length - 1; i >= 0; i -= 1) f = bindSimple(sources[i] as Filter, f);
  return f;
}

function bindSimple(source: Filter, body: Filter): Filter {
  const s1 = source.one;
  const b1 = body.one;
  if (s1 !== undefined && b1 !== undefined) {
    const one = (input: Value, env: Env): Value => b1(input, new Env(env, s1(input, env)));
    return makeFilter((input, env) => singleIter(one(input, env)), {
      one,
      paths: function* (input, path, env) {
        yield* iter(body.paths(input, path, new Env(env, s1(input, env))));
      },
      usesInput: source.usesInput || body.usesInput,
    });
  }
  return makeFilter(
    function* (input, env) {
      for (const v of iter(source.run(input, env))) {
        if (v === SUSPEND) {
          yield v;
          continue;
        }
        yield* iter(body.run(input, new Env(env, v)));
      }
    },
    {
      paths: function* (input, path, env) {
        for (const v of iter(source.run(input, env))) {
          if (v === SUSPEND) {
            yield v;
            continue;
          }
          yield* iter(body.paths(input, path, new Env(env, v)));
        }
      },
      usesInput: source.usesInput || body.usesInput,
    },
  );
}

/** A compiled destructuring pattern. */
type Matcher =
  | { readonly t: 'var'; readonly slot: number }
  | { readonly t: 'array'; readonly items: readonly Matcher[] }
  | {
      readonly t: 'object';
      readonly entries: readonly {
        readonly key: Filter;
        readonly bindSlot: number;
        readonly sub: Matcher | null;
      }[];
    };

/** Every way `value` binds `m`'s variables into `slots` (several when a key expression has several outputs). */
function* destructure(m: Matcher, value: Value, slots: Value[], env: Env): Generator<Out, void, undefined> {
  if (m.t === 'var') {
    slots[m.slot] = value;
    yield null;
    return;
  }
  if (m.t === 'array') {
    const items = m.items;
    function* each(i: number): Generator<Out, void, undefined> {
      if (i === items.length) {
        yield null;
        return;
      }
      if (value !== null && !Array.isArray(value))
        throw new JqError(`Cannot index ${kindOf(value)} with number`);
      const element = value === null ? null : indexValue(value, i);
      for (const step of iter(destructure(items[i] as Matcher, element, slots, env))) {
        if (step === SUSPEND) {
          yield step;
          continue;
        }
        yield* each(i + 1);
      }
    }
    yield* each(0);
    return;
  }
  const entries = m.entries;
  function* each(i: number): Generator<Out, void, undefined> {
    if (i === entries.length) {
      yield null;
      return;
    }
    const e = entries[i] as (typeof entries)[number];
    for (const k of iter(e.key.run(value, env))) {
      if (k === SUSPEND) {
        yield k;
        continue;
      }
      if (typeof k !== 'string') {
        throw new JqError(`Cannot index ${kindOf(value)} with ${kindOf(k)}`);
      }
      const v = indexValue(value, k);
      if (e.bindSlot >= 0) slots[e.bindSlot] = v;
      if (e.sub === null) yield* each(i + 1);
      else {
        for (const step of iter(destructure(e.sub, v, slots, env))) {
          if (step === SUSPEND) {
            yield step;
            continue;
          }
          yield* each(i + 1);
        }
      }
    }
  }
  yield* each(0);
}

function pushSlots(env: Env, slots: readonly Value[]): Env {
  let e = env;
  for (const v of slots) e = new Env(e, v);
  return e;
}

/**
 * Run `body` for each binding of `value` by the alternatives: an error (while destructuring or in
 * the body) with any but the last alternative moves on to the next one.
 */
function* withBindings<T>(
  matchers: readonly Matcher[],
  count: number,
  value: Value,
  env: Env,
  body: (e: Env) => Iterator<T | typeof SUSPEND, void, undefined>,
): Generator<T | typeof SUSPEND, void, undefined> {
  for (let a = 0; a < matchers.length; a += 1) {
    const last = a === matchers.length - 1;
    const slots: Value[] = new Array(count).fill(null);
    try {
      for (const step of iter(destructure(matchers[a] as Matcher, value, slots, env))) {
        if (step === SUSPEND) {
          yield step;
          continue;
        }
        yield* iter(body(pushSlots(env, slots)));
      }
      return;
    } catch (error) {
      if (last || !(error instanceof JqError)) throw error;
    }
  }
}

function bindPatterns(source: Filter, matchers: readonly Matcher[], count: number, body: Filter): Filter {
  return makeFilter(
    function* (input, env) {
      for (const v of iter(source.run(input, env))) {
        if (v === SUSPEND) {
          yield v;
          continue;
        }
        yield* withBindings(matchers, count, v, env, (e) => body.run(input, e));
      }
    },
    {
      paths: function* (input, path, env) {
        for (const v of iter(source.run(input, env))) {
          if (v === SUSPEND) {
            yield v;
            continue;
          }
          yield* withBindings(matchers, count, v, env, (e) => body.paths(input, path, e));
        }
      },
    },
  );
}

/**
 * The right operand of a `reduce` update of the form `. + R` where `R` does not read `.`: such a
 * reduction may append to an accumulator it created itself instead of copying it each step.
 */
function appendOperand(update: Node): Node | undefined {
  if (
    update.t === 'Binary' &&
    update.op === '+' &&
    update.left.t === 'Identity' &&
    !readsInput(update.right)
  ) {
    return update.right;
  }
  return undefined;
}

/** Conservative: whether an expression may read its input `.`. */
function readsInput(n: Node): boolean {
  switch (n.t) {
    case 'Literal':
    case 'Var':
    case 'Loc':
      return false;
    case 'Collect':
      return n.body !== null && readsInput(n.body);
    case 'Object':
      return n.entries.some((e) => readsInput(e.key) || readsInput(e.value));
    case 'Str':
      return n.parts.some((p) => typeof p !== 'string' && readsInput(p));
    case 'Pipe':
      return readsInput(n.left);
    case 'Comma':
    case 'Binary':
    case 'And':
    case 'Or':
    case 'Alt':
      return readsInput(n.left) || readsInput(n.right);
    case 'Neg':
      return readsInput(n.body);
    default:
      return true;
  }
}

function reduceFilter(
  source: Filter,
  matchers: readonly Matcher[],
  count: number,
  init: Filter,
  update: Filter,
  append: Filter | undefined,
): Filter {
  const simpleVar = matchers.length === 1 && (matchers[0] as Matcher).t === 'var';
  const appendOne = simpleVar ? append?.one : undefined;
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    const r = rt();
    for (const start of iter(init.run(input, env))) {
      if (start === SUSPEND) {
        yield start;
        continue;
      }
      let acc: Value = start;
      // Whether `acc` is a container this reduction made, referenced from nowhere else.
      let owned = false;
      for (const item of iter(source.run(input, env))) {
        if (item === SUSPEND) {
          yield item;
          continue;
        }
        if (r.tick()) yield SUSPEND;
        if (appendOne !== undefined) {
          const x = appendOne(acc, new Env(env, item));
          if (owned && Array.isArray(acc) && Array.isArray(x)) {
            if (acc.length + x.length > r.limits.maxArrayLength) throw new JqError('Array too large');
            for (const y of x) acc.push(y);
          } else if (owned && acc instanceof Map && x instanceof Map) {
            for (const [k, y] of x) acc.set(k, y);
          } else {
            const next = add(acc, x);
            owned = next !== acc && next !== x && (Array.isArray(next) || next instanceof Map);
            acc = next;
          }
          continue;
        }
        let last: Value = null;
        const body = simpleVar
          ? update.run(acc, new Env(env, item))
          : withBindings(matchers, count, item, env, (e) => update.run(acc, e));
        for (const v of iter(body)) {
          if (v === SUSPEND) {
            yield v;
            continue;
          }
          last = v;
        }
        acc = last;
      }
      yield acc;
    }
  };
  return makeFilter(run, {
    paths: function* (input, path, env) {
      for (const start of iter(init.paths(input, path, env))) {
        if (start === SUSPEND) {
          yield start;
          continue;
        }
        let acc: PathOut = start;
        for (const item of iter(source.run(input, env))) {
          if (item === SUSPEND) {
            yield item;
            continue;
          }
          let last: PathOut = { v: null, p: null };
          for (const v of iter(
            withBindings(matchers, count, item, env, (e) => update.paths(acc.v, acc.p, e)),
          )) {
            if (v === SUSPEND) {
              yield v;
              continue;
            }
            last = v;
          }
          acc = last;
        }
        yield acc;
      }
    },
  });
}

function foreachFilter(
  source: Filter,
  matchers: readonly Matcher[],
  count: number,
  init: Filter,
  update: Filter,
  extract: Filter | null,
): Filter {
  const run = function* (input: Value, env: Env): Generator<Out, void, undefined> {
    const r = rt();
    for (const start of iter(init.run(input, env))) {
      if (start === SUSPEND) {
        yield start;
        continue;
      }
      let state: Value = start;
      for (const item of iter(source.run(input, env))) {
        if (item === SUSPEND) {
          yield item;
          continue;
        }
        if (r.tick()) yield SUSPEND;
        const current = state;
        state = null;
        yield* withBindings(matchers, count, item, env, function* (e) {
          for (const u of iter(update.run(current, e))) {
            if (u === SUSPEND) {
              yield u;
              continue;
            }
            state = u;
            if (extract === null) yield u;
            else yield* iter(extract.run(u, e));
          }
        });
      }
    }
  };
  return makeFilter(run, {
    paths: function* (input, path, env) {
      for (const start of iter(init.paths(input, path, env))) {
        if (start === SUSPEND) {
          yield start;
          continue;
        }
        let state: PathOut = start;
        for (const item of iter(source.run(input, env))) {
          if (item === SUSPEND) {
            yield item;
            continue;
          }
          const current = state;
          state = { v: null, p: null };
          yield* withBindings(matchers, count, item, env, function* (e) {
            for (const u of iter(update.paths(current.v, current.p, e))) {
              if (u === SUSPEND) {
                yield u;
                continue;
              }
              state = u;
              if (extract === null) yield u;
              else yield* iter(extract.paths(u.v, u.p, e));
            }
          });
        }
      }
    },
  });
}

function labelFilter(body: Filter): Filter {
  return makeFilter(
    function* (input, env) {
      const mark = new LabelMark();
      try {
        yield* iter(body.run(input, new Env(env, mark)));
      } catch (error) {
        if (error instanceof JqBreak && error.label === mark) return;
        throw error;
      }
    },
    {
      paths: function* (input, path, env) {
        const mark = new LabelMark();
        try {
          yield* iter(body.paths(input, path, new Env(env, mark)));
        } catch (error) {
          if (error instanceof JqBreak && error.label === mark) return;
          throw error;
        }
      },
    },
  );
}

function breakFilter(hops: number): Filter {
  const run = (_: Value, env: Env): Iterator<Out, void, undefined> => {
    throw new JqBreak(env.at(hops).value as LabelMark);
  };
  return {
    run,
    paths: (_input, _path, env) => {
      throw new JqBreak(env.at(hops).value as LabelMark);
    },
    usesInput: false,
  };
}

export type { OptFn };
export { constant, EMPTY_ITER, fromOne, iter, makeFilter, optOf, singleIter };
