/**
 * Evaluate bash arithmetic in 64-bit two's complement (BigInt wrapped at every step), with short
 * circuits, side effects in order, and bash's errors (division by 0, negative exponent, a
 * variable's value that is not an expression).
 * @module
 */
import { ArithError, type ArithNode, type ArithVar, parseArith } from './arith-parser.js';

/** What arithmetic needs from the shell's variables. */
export interface ArithScope {
  /** The value of a variable or element as text; `undefined` when unset. */
  get(v: ArithVar, evaluate: (text: string) => bigint): string | undefined;
  set(v: ArithVar, value: bigint, evaluate: (text: string) => bigint): void;
}

const MAX_DEPTH = 1024;
const INT_RE = /^[ \t\n]*(-?)([0-9]+)[ \t\n]*$/;

/**
 * A plain decimal of up to 15 digits (a counter, a length): its value without a regular
 * expression or a string-to-BigInt parse. `undefined` for anything else (the general path).
 */
function smallDecimal(raw: string): bigint | undefined {
  const len = raw.length;
  if (len > 16) return undefined;
  let i = 0;
  let negative = false;
  if (raw.charCodeAt(0) === 45) {
    negative = true;
    i = 1;
  }
  if (i === len || (raw.charCodeAt(i) === 48 && len - i > 1)) return undefined;
  let n = 0;
  for (; i < len; i += 1) {
    const d = raw.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    n = n * 10 + d;
  }
  return BigInt(negative ? -n : n);
}

/** Evaluate the expression `text`. */
export function evaluateArith(text: string, scope: ArithScope): bigint {
  return new Evaluator(scope).evalText(text, 0);
}

/**
 * An evaluator over `scope` to call many times (it keeps no state between calls, so one made per
 * scope serves every expression, nested ones too).
 */
export function arithEvaluator(scope: ArithScope): (text: string) => bigint {
  const evaluator = new Evaluator(scope);
  return (text) => evaluator.evalText(text, 0);
}

class Evaluator {
  constructor(private readonly scope: ArithScope) {}

  /** Evaluates a variable's value at depth 1 (made once: most evaluations are at depth 0). */
  private readonly nested1 = (t: string): bigint => this.evalText(t, 1);

  evalText(text: string, depth: number): bigint {
    const node = parseArith(text);
    if (node === null) return 0n;
    return this.eval(node, text, depth);
  }

  private valueOf(v: ArithVar, text: string, depth: number): bigint {
    const raw = this.scope.get(v, depth === 0 ? this.nested1 : (t) => this.evalText(t, depth + 1));
    if (raw === undefined || raw === '') return 0n;
    const quick = smallDecimal(raw);
    if (quick !== undefined) return quick;
    const m = INT_RE.exec(raw);
    if (m !== null && !(m[2] as string).startsWith('0')) {
      const n = BigInt.asIntN(64, BigInt(m[2] as string));
      return m[1] === '-' ? BigInt.asIntN(64, -n) : n;
    }
    if (depth >= MAX_DEPTH)
      throw new ArithError(text, 'expression recursion level exceeded', text.slice(v.pos));
    return this.evalText(raw, depth + 1);
  }

  private store(v: ArithVar, value: bigint, depth: number): void {
    this.scope.set(v, value, depth === 0 ? this.nested1 : (t) => this.evalText(t, depth + 1));
  }

  private eval(n: ArithNode, text: string, depth: number): bigint {
    switch (n.t) {
      case 'num':
        return n.v;
      case 'var':
        return this.valueOf(n, text, depth);
      case 'unary': {
        const e = this.eval(n.e, text, depth);
        switch (n.op) {
          case '-':
            return BigInt.asIntN(64, -e);
          case '+':
            return e;
          case '!':
            return e === 0n ? 1n : 0n;
          case '~':
            return BigInt.asIntN(64, ~e);
        }
        break;
      }
      case 'incdec': {
        const old = this.valueOf(n.target, text, depth);
        const next = BigInt.asIntN(64, n.op === '++' ? old + 1n : old - 1n);
        this.store(n.target, next, depth);
        return n.prefix ? next : old;
      }
      case 'bin': {
        const l = this.eval(n.l, text, depth);
        const r = this.eval(n.r, text, depth);
        return binary(n.op, l, r, text, n.divPos, n.errPos);
      }
      case 'logic': {
        const l = this.eval(n.l, text, depth);
        if (n.op === '&&') return l !== 0n && this.eval(n.r, text, depth) !== 0n ? 1n : 0n;
        return l !== 0n || this.eval(n.r, text, depth) !== 0n ? 1n : 0n;
      }
      case 'cond':
        return this.eval(n.c, text, depth) !== 0n ? this.eval(n.a, text, depth) : this.eval(n.b, text, depth);
      case 'assign': {
        let value: bigint;
        if (n.op === '=') value = this.eval(n.e, text, depth);
        else {
          const old = this.valueOf(n.target, text, depth);
          const r = this.eval(n.e, text, depth);
          value = binary(n.op.slice(0, -1) as Parameters<typeof binary>[0], old, r, text, n.divPos, n.errPos);
        }
        this.store(n.target, value, depth);
        return value;
      }
      case 'comma':
        this.eval(n.l, text, depth);
        return this.eval(n.r, text, depth);
    }
    return 0n;
  }
}

const MIN = -(2n ** 63n);

function binary(
  op:
    | '**'
    | '*'
    | '/'
    | '%'
    | '+'
    | '-'
    | '<<'
    | '>>'
    | '<='
    | '>='
    | '<'
    | '>'
    | '=='
    | '!='
    | '&'
    | '^'
    | '|',
  l: bigint,
  r: bigint,
  text: string,
  divPos: number,
  errPos: number,
): bigint {
  switch (op) {
    case '+':
      return BigInt.asIntN(64, l + r);
    case '-':
      return BigInt.asIntN(64, l - r);
    case '*':
      return BigInt.asIntN(64, l * r);
    case '/':
      if (r === 0n) throw new ArithError(text, 'division by 0', text.slice(divPos));
      if (l === MIN && r === -1n) return MIN;
      return BigInt.asIntN(64, l / r);
    case '%':
      if (r === 0n) throw new ArithError(text, 'division by 0', text.slice(divPos));
      if (l === MIN && r === -1n) return 0n;
      return BigInt.asIntN(64, l % r);
    case '**':
      if (r < 0n) throw new ArithError(text, 'exponent less than 0', text.slice(errPos));
      return power(l, r);
    case '<<':
      return BigInt.asIntN(64, l << (r & 63n));
    case '>>':
      return BigInt.asIntN(64, l >> (r & 63n));
    case '<=':
      return l <= r ? 1n : 0n;
    case '>=':
      return l >= r ? 1n : 0n;
    case '<':
      return l < r ? 1n : 0n;
    case '>':
      return l > r ? 1n : 0n;
    case '==':
      return l === r ? 1n : 0n;
    case '!=':
      return l !== r ? 1n : 0n;
    case '&':
      return l & r;
    case '^':
      return l ^ r;
    case '|':
      return l | r;
  }
}

/** `l ** r` by squaring, wrapped at each step (no giant intermediate). */
function power(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = BigInt.asIntN(64, base);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = BigInt.asIntN(64, result * b);
    b = BigInt.asIntN(64, b * b);
    e >>= 1n;
  }
  return result;
}
