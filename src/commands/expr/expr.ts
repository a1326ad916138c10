/**
 * `expr` (GNU coreutils 9): evaluate an expression given as separate arguments. Integers are of
 * any size (BigInt, as GNU's GMP build), comparisons are numeric when both sides are integers and
 * by code point otherwise (C.UTF-8's collation), `:` and `match` are anchored GNU basic regular
 * expressions from the project's engine, and lengths and positions count characters. Exit
 * status: 0 for a result neither null nor 0, 1 for null or 0, 2 for an invalid expression, 3 for
 * another error; messages as GNU's (`expr: syntax error: unexpected argument ‘2’`).
 * @module
 */
import { compileRegex, RegexSyntaxError } from '../../regex/index.js';
import type { CommandContext, CommandSpec } from '../command.js';

const HELP = `Usage: expr EXPRESSION
  or:  expr OPTION

      --help        display this help and exit
      --version     output version information and exit

Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \\( and \\) or null; if
\\( and \\) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/expr>
or available locally via: info '(coreutils) expr invocation'
`;

const VERSION = `expr (GNU coreutils) 9.1 (the berth virtual shell's implementation)
This is not GNU coreutils: it answers as GNU expr 9.1 does in the C.UTF-8 locale.
`;

/** Longest string an expression may produce (the arguments bound everything else). */
const MAX_DIGITS = 1_000_000;

type ExprValue = bigint | string;

/** A failure with GNU's message and exit status. */
class ExprError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** GNU's `quote()` in a UTF-8 locale. */
const quote = (s: string): string => `\u2018${s}\u2019`;

const INTEGER = /^-?[0-9]+$/;

function isNull(v: ExprValue): boolean {
  if (typeof v === 'bigint') return v === 0n;
  return v === '' || /^-?0+$/.test(v);
}

function toInteger(v: ExprValue): bigint {
  if (typeof v === 'bigint') return v;
  if (!INTEGER.test(v)) throw new ExprError('non-integer argument', 2);
  if (v.length > MAX_DIGITS) throw new ExprError('integer too large for this shell', 3);
  return BigInt(v);
}

const asText = (v: ExprValue): string => (typeof v === 'bigint' ? v.toString() : v);

/** Code point order (UTF-16 comparison would misplace characters beyond the BMP). */
function compareText(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i += 1) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const chars = (s: string): string[] => [...s];

class Parser {
  private i = 0;
  constructor(private readonly args: readonly string[]) {}

  /** The whole expression; anything left over is an error. */
  parse(): ExprValue {
    const v = this.or(true);
    if (this.i < this.args.length)
      throw new ExprError(`syntax error: unexpected argument ${quote(this.args[this.i] as string)}`, 2);
    return v;
  }

  private peekIs(token: string): boolean {
    return this.args[this.i] === token;
  }

  private take(token: string): boolean {
    if (!this.peekIs(token)) return false;
    this.i += 1;
    return true;
  }

  private or(evaluate: boolean): ExprValue {
    let l = this.and(evaluate);
    while (this.take('|')) {
      const r = this.and(evaluate && isNull(l));
      if (isNull(l)) l = isNull(r) ? 0n : r;
    }
    return l;
  }

  private and(evaluate: boolean): ExprValue {
    let l = this.compare(evaluate);
    while (this.take('&')) {
      const r = this.compare(evaluate && !isNull(l));
      if (isNull(l) || isNull(r)) l = 0n;
    }
    return l;
  }

  private compare(evaluate: boolean): ExprValue {
    let l = this.additive(evaluate);
    for (;;) {
      const op = this.args[this.i];
      if (op !== '<' && op !== '<=' && op !== '=' && op !== '==' && op !== '!=' && op !== '>=' && op !== '>')
        return l;
      this.i += 1;
      const r = this.additive(evaluate);
      if (!evaluate) continue;
      const ls = asText(l);
      const rs = asText(r);
      const c =
        INTEGER.test(ls) && INTEGER.test(rs)
          ? Number(BigInt(ls) - BigInt(rs) > 0n) - Number(BigInt(ls) - BigInt(rs) < 0n)
          : Math.sign(compareText(ls, rs));
      const holds =
        op === '<'
          ? c < 0
          : op === '<='
            ? c <= 0
            : op === '=' || op === '=='
              ? c === 0
              : op === '!='
                ? c !== 0
                : op === '>='
                  ? c >= 0
                  : c > 0;
      l = holds ? 1n : 0n;
    }
  }

  private additive(evaluate: boolean): ExprValue {
    let l = this.multiplicative(evaluate);
    for (;;) {
      const op = this.args[this.i];
      if (op !== '+' && op !== '-') return l;
      this.i += 1;
      const r = this.multiplicative(evaluate);
      if (!evaluate) continue;
      const a = toInteger(l);
      const b = toInteger(r);
      l = op === '+' ? a + b : a - b;
    }
  }

  private multiplicative(evaluate: boolean): ExprValue {
    let l = this.colon(evaluate);
    for (;;) {
      const op = this.args[this.i];
      if (op !== '*' && op !== '/' && op !== '%') return l;
      this.i += 1;
      const r = this.colon(evaluate);
      if (!evaluate) continue;
      const a = toInteger(l);
      const b = toInteger(r);
      if (op !== '*' && b === 0n) throw new ExprError('division by zero', 2);
      if (op === '*' && a.toString().length + b.toString().length > MAX_DIGITS) {
        throw new ExprError('integer too large for this shell', 3);
      }
      l = op === '*' ? a * b : op === '/' ? a / b : a % b;
    }
  }

  private colon(evaluate: boolean): ExprValue {
    let l = this.unary(evaluate);
    while (this.take(':')) {
      const r = this.unary(evaluate);
      if (evaluate) l = match(asText(l), asText(r));
    }
    return l;
  }

  private operand(): string {
    const a = this.args[this.i];
    if (a === undefined)
      throw new ExprError(
        `syntax error: missing argument after ${quote(this.args[this.i - 1] as string)}`,
        2,
      );
    this.i += 1;
    return a;
  }

  private unary(evaluate: boolean): ExprValue {
    if (this.i >= this.args.length) {
      throw new ExprError(
        `syntax error: missing argument after ${quote(this.args[this.i - 1] as string)}`,
        2,
      );
    }
    if (this.take('+')) return this.operand();
    if (this.take('length')) {
      const v = this.unary(evaluate);
      return BigInt(chars(asText(v)).length);
    }
    if (this.take('match')) {
      const s = this.unary(evaluate);
      const re = this.unary(evaluate);
      return evaluate ? match(asText(s), asText(re)) : 0n;
    }
    if (this.take('index')) {
      const s = chars(asText(this.unary(evaluate)));
      const set = new Set(chars(asText(this.unary(evaluate))));
      const at = s.findIndex((ch) => set.has(ch));
      return BigInt(at + 1);
    }
    if (this.take('substr')) {
      const s = chars(asText(this.unary(evaluate)));
      const pos = asText(this.unary(evaluate));
      const len = asText(this.unary(evaluate));
      if (!INTEGER.test(pos) || !INTEGER.test(len)) return '';
      const p = BigInt(pos);
      const n = BigInt(len);
      if (p < 1n || n < 1n || p > BigInt(s.length)) return '';
      const start = Number(p) - 1;
      const count = n > BigInt(s.length) ? s.length : Number(n);
      return s.slice(start, start + count).join('');
    }
    return this.primary(evaluate);
  }

  private primary(evaluate: boolean): ExprValue {
    if (this.take('(')) {
      if (this.i >= this.args.length) {
        throw new ExprError(
          `syntax error: missing argument after ${quote(this.args[this.i - 1] as string)}`,
          2,
        );
      }
      const v = this.or(evaluate);
      if (this.take(')')) return v;
      if (this.i >= this.args.length) {
        throw new ExprError(`syntax error: expecting ')' after ${quote(this.args[this.i - 1] as string)}`, 2);
      }
      throw new ExprError(`syntax error: expecting ')' instead of ${quote(this.args[this.i] as string)}`, 2);
    }
    if (this.peekIs(')')) throw new ExprError("syntax error: unexpected ')'", 2);
    return this.operand();
  }
}

/** `STRING : REGEX`: anchored at the start; the first group's text, else the characters matched. */
function match(s: string, pattern: string): ExprValue {
  let re: ReturnType<typeof compileRegex>;
  try {
    re = compileRegex(pattern, { syntax: 'bre', dialect: 'posix' });
  } catch (error) {
    if (error instanceof RegexSyntaxError) throw new ExprError(error.message, 2);
    throw error;
  }
  const m = re.exec(s, 0);
  const anchored = m !== null && m.start === 0 ? m : null;
  if (re.groupCount > 0) {
    if (anchored === null) return '';
    return re.group(anchored, s, 1) ?? '';
  }
  if (anchored === null) return 0n;
  return BigInt(chars(s.slice(0, anchored.end)).length);
}

async function exprMain(ctx: CommandContext): Promise<number> {
  const enc = new TextEncoder();
  const say = (s: string): Promise<void> => ctx.stderr.write(enc.encode(s)).catch(() => {});
  let args = ctx.argv.slice(1);
  if (args.length === 1 && args[0] === '--help') {
    await ctx.stdout.write(enc.encode(HELP));
    return 0;
  }
  if (args.length === 1 && args[0] === '--version') {
    await ctx.stdout.write(enc.encode(VERSION));
    return 0;
  }
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0) {
    await say("expr: missing operand\nTry 'expr --help' for more information.\n");
    return 2;
  }
  let result: ExprValue;
  try {
    result = new Parser(args).parse();
  } catch (error) {
    if (error instanceof ExprError) {
      await say(`expr: ${error.message}\n`);
      return error.status;
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      await say('expr: expression nested too deeply for this shell\n');
      return 3;
    }
    throw error;
  }
  await ctx.stdout.write(enc.encode(`${asText(result)}\n`));
  return isNull(result) ? 1 : 0;
}

export const exprCommand: CommandSpec = {
  name: 'expr',
  summary: 'evaluate expressions',
  help: HELP,
  run: exprMain,
};
