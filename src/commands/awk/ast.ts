/**
 * The awk syntax tree the parser builds and the compiler turns into closures. Nodes carry the
 * position gawk's runtime diagnostics name (`awk: cmd. line:3: fatal: ...`).
 * @module
 */
import type { SourcePosition } from './source.js';

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '^' | 'concat' | '<' | '<=' | '>' | '>=' | '==' | '!=';
export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '^=';

/** Something that can be assigned: a variable, an array element, or a field. */
export type LValue =
  | { readonly k: 'var'; readonly name: string; readonly at: SourcePosition }
  | {
      readonly k: 'index';
      readonly name: string;
      readonly subs: readonly Expr[];
      readonly at: SourcePosition;
    }
  | { readonly k: 'field'; readonly index: Expr; readonly at: SourcePosition };

export type Expr =
  | LValue
  | { readonly k: 'num'; readonly value: number; readonly at: SourcePosition }
  | { readonly k: 'str'; readonly value: string; readonly at: SourcePosition }
  /** A regex literal: in value context it means `$0 ~ /re/`. */
  | { readonly k: 'regex'; readonly source: string; readonly at: SourcePosition }
  | { readonly k: 'group'; readonly expr: Expr; readonly at: SourcePosition }
  /** `(a, b)`: only valid before `in` or as the argument list of `print`. */
  | { readonly k: 'grouplist'; readonly items: readonly Expr[]; readonly at: SourcePosition }
  | {
      readonly k: 'assign';
      readonly op: AssignOp;
      readonly target: LValue;
      readonly value: Expr;
      readonly at: SourcePosition;
    }
  | {
      readonly k: 'cond';
      readonly test: Expr;
      readonly yes: Expr;
      readonly no: Expr;
      readonly at: SourcePosition;
    }
  | { readonly k: 'and' | 'or'; readonly left: Expr; readonly right: Expr; readonly at: SourcePosition }
  | { readonly k: 'in'; readonly subs: readonly Expr[]; readonly name: string; readonly at: SourcePosition }
  | {
      readonly k: 'match';
      readonly negated: boolean;
      readonly left: Expr;
      readonly right: Expr;
      readonly at: SourcePosition;
    }
  | {
      readonly k: 'binary';
      readonly op: BinaryOp;
      readonly left: Expr;
      readonly right: Expr;
      readonly at: SourcePosition;
    }
  | { readonly k: 'unary'; readonly op: '-' | '+' | '!'; readonly expr: Expr; readonly at: SourcePosition }
  | {
      readonly k: 'incdec';
      readonly op: '++' | '--';
      readonly prefix: boolean;
      readonly target: LValue;
      readonly at: SourcePosition;
    }
  | { readonly k: 'call'; readonly name: string; readonly args: readonly Expr[]; readonly at: SourcePosition }
  | {
      readonly k: 'builtin';
      readonly name: string;
      readonly args: readonly Expr[];
      readonly at: SourcePosition;
    }
  | {
      readonly k: 'getline';
      /** `getline`, `getline < file`, `cmd | getline`, `cmd |& getline`. */
      readonly from: 'input' | 'file' | 'command' | 'coprocess';
      readonly target: LValue | undefined;
      readonly source: Expr | undefined;
      readonly at: SourcePosition;
    };

export interface Redirect {
  readonly kind: '>' | '>>' | '|' | '|&';
  readonly target: Expr;
}

export type Stmt =
  | {
      readonly k: 'print' | 'printf';
      readonly args: readonly Expr[];
      readonly redirect: Redirect | undefined;
      readonly at: SourcePosition;
    }
  | { readonly k: 'expr'; readonly expr: Expr; readonly at: SourcePosition }
  | {
      readonly k: 'if';
      readonly test: Expr;
      readonly then: Stmt;
      readonly otherwise: Stmt | undefined;
      readonly at: SourcePosition;
    }
  | { readonly k: 'while'; readonly test: Expr; readonly body: Stmt; readonly at: SourcePosition }
  | { readonly k: 'do'; readonly body: Stmt; readonly test: Expr; readonly at: SourcePosition }
  | {
      readonly k: 'for';
      readonly init: Stmt | undefined;
      readonly test: Expr | undefined;
      readonly step: Stmt | undefined;
      readonly body: Stmt;
      readonly at: SourcePosition;
    }
  | {
      readonly k: 'forin';
      readonly variable: LValue;
      readonly array: string;
      readonly body: Stmt;
      readonly at: SourcePosition;
    }
  | { readonly k: 'block'; readonly body: readonly Stmt[]; readonly at: SourcePosition }
  | { readonly k: 'next' | 'nextfile' | 'break' | 'continue'; readonly at: SourcePosition }
  | { readonly k: 'exit' | 'return'; readonly expr: Expr | undefined; readonly at: SourcePosition }
  | {
      readonly k: 'delete';
      readonly name: string;
      readonly subs: readonly Expr[] | undefined;
      readonly at: SourcePosition;
    }
  | {
      readonly k: 'switch';
      readonly subject: Expr;
      readonly cases: readonly SwitchCase[];
      readonly at: SourcePosition;
    };

export interface SwitchCase {
  /** `undefined` for `default`. */
  readonly label: Expr | undefined;
  readonly body: readonly Stmt[];
}

export type Pattern =
  | { readonly k: 'BEGIN' | 'END' | 'BEGINFILE' | 'ENDFILE' | 'always' }
  | { readonly k: 'expr'; readonly expr: Expr }
  | { readonly k: 'range'; readonly from: Expr; readonly to: Expr };

export interface Rule {
  readonly pattern: Pattern;
  /** `undefined`: the default action, `print`. */
  readonly action: readonly Stmt[] | undefined;
  readonly at: SourcePosition;
}

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly string[];
  readonly body: readonly Stmt[];
  readonly at: SourcePosition;
}

export interface Program {
  readonly rules: readonly Rule[];
  readonly functions: ReadonlyMap<string, FunctionDef>;
}
