/**
 * The jq program as a tree, as the parser builds it and the compiler reads it. Every node keeps
 * its source offsets for compile errors and `$__loc__`.
 * @module
 */
import type { Value } from './value.js';

interface Base {
  readonly start: number;
  readonly end: number;
}

export type Node =
  | (Base & { readonly t: 'Identity' })
  | (Base & { readonly t: 'RecurseAll' })
  | (Base & { readonly t: 'Literal'; readonly value: Value })
  | (Base & { readonly t: 'Str'; readonly parts: readonly (string | Node)[]; readonly format: string | null })
  | (Base & { readonly t: 'Format'; readonly name: string })
  | (Base & { readonly t: 'Index'; readonly target: Node; readonly index: Node })
  | (Base & {
      readonly t: 'Slice';
      readonly target: Node;
      readonly from: Node | null;
      readonly to: Node | null;
    })
  | (Base & { readonly t: 'Iterate'; readonly target: Node })
  | (Base & { readonly t: 'Collect'; readonly body: Node | null })
  | (Base & { readonly t: 'Object'; readonly entries: readonly ObjectEntry[] })
  | (Base & { readonly t: 'Neg'; readonly body: Node })
  | (Base & { readonly t: 'Pipe'; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'Comma'; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'Binary'; readonly op: BinaryOp; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'And'; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'Or'; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'Alt'; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'Assign'; readonly op: AssignOp; readonly left: Node; readonly right: Node })
  | (Base & { readonly t: 'If'; readonly cond: Node; readonly then: Node; readonly otherwise: Node | null })
  | (Base & { readonly t: 'Try'; readonly body: Node; readonly handler: Node | null })
  | (Base & {
      readonly t: 'Reduce';
      readonly source: Node;
      readonly patterns: readonly Pattern[];
      readonly init: Node;
      readonly update: Node;
    })
  | (Base & {
      readonly t: 'Foreach';
      readonly source: Node;
      readonly patterns: readonly Pattern[];
      readonly init: Node;
      readonly update: Node;
      readonly extract: Node | null;
    })
  | (Base & { readonly t: 'FuncDef'; readonly def: FuncDef; readonly rest: Node })
  | (Base & { readonly t: 'Call'; readonly name: string; readonly args: readonly Node[] })
  | (Base & { readonly t: 'Var'; readonly name: string })
  | (Base & {
      readonly t: 'Bind';
      readonly source: Node;
      readonly patterns: readonly Pattern[];
      readonly body: Node;
    })
  | (Base & { readonly t: 'Label'; readonly name: string; readonly body: Node })
  | (Base & { readonly t: 'Break'; readonly name: string })
  | (Base & { readonly t: 'Loc'; readonly line: number });

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';
export type AssignOp = '=' | '|=' | '+=' | '-=' | '*=' | '/=' | '%=' | '//=';

export interface ObjectEntry {
  /** The key: a constant string or an expression producing strings. */
  readonly key: Node;
  /** The value (the parser spells out shorthands: `{a}` is `{a: .a}`, `{$x}` is `{x: $x}`). */
  readonly value: Node;
}

export interface FuncDef {
  readonly name: string;
  readonly params: readonly Param[];
  readonly body: Node;
  readonly start: number;
  readonly end: number;
}

export interface Param {
  readonly name: string;
  /** `$name`: a value parameter (also callable as `name`). */
  readonly isVar: boolean;
}

export type Pattern =
  | { readonly t: 'PVar'; readonly name: string; readonly start: number; readonly end: number }
  | { readonly t: 'PArray'; readonly items: readonly Pattern[]; readonly start: number; readonly end: number }
  | {
      readonly t: 'PObject';
      readonly entries: readonly PatternEntry[];
      readonly start: number;
      readonly end: number;
    };

export interface PatternEntry {
  readonly key: Node;
  /** `$name` or `$name: pattern`: the whole value at the key is bound to this variable too. */
  readonly bindVar: string | null;
  readonly pattern: Pattern | null;
}

/** A whole program: imports, then definitions and a main expression. */
export interface Program {
  readonly moduleMeta: Value | null;
  readonly imports: readonly Import[];
  readonly body: Node;
}

export interface Import {
  readonly path: string;
  /** `import "p" as name` (functions) or `as $name` (data); `null` for `include`. */
  readonly alias: string | null;
  readonly isData: boolean;
  readonly meta: Value | null;
  readonly start: number;
  readonly end: number;
}
