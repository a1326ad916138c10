/**
 * The compiled form of an awk program: every expression becomes closures, typed so the hot path
 * does no work it need not (`s += $3` reads field 3 as a number and never builds a value). An
 * expression or statement that may wait (a user function call, getline, system, a redirected
 * print, a loop, which yields to the host between iterations) is compiled to an async closure;
 * everything else stays synchronous, so a record whose rules do no I/O runs without a single
 * `await`.
 * @module
 */
import type { Value } from './values.js';

/** A synchronous expression, readable as a value, a number, a string or a truth value. */
export interface SyncExpr {
  readonly sync: true;
  /** Statically known kind of result: a number, a string, or anything (a value). */
  readonly type: 'num' | 'str' | 'any';
  v(): Value;
  n(): number;
  s(): string;
  b(): boolean;
}

/** An expression that may wait. */
export interface AsyncExpr {
  readonly sync: false;
  readonly type: 'num' | 'str' | 'any';
  v(): Promise<Value>;
}

export type CExpr = SyncExpr | AsyncExpr;

/** How a statement ended. */
export const FLOW_NORMAL = 0;
export const FLOW_BREAK = 1;
export const FLOW_CONTINUE = 2;
export const FLOW_NEXT = 3;
export const FLOW_NEXTFILE = 4;
export const FLOW_EXIT = 5;
export const FLOW_RETURN = 6;
export type Flow = number;

export interface SyncStmt {
  readonly sync: true;
  run(): Flow;
}

export interface AsyncStmt {
  readonly sync: false;
  run(): Promise<Flow>;
}

export type CStmt = SyncStmt | AsyncStmt;
