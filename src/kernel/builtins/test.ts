/**
 * `test` and `[`: POSIX's rules by argument count (0 to 4 arguments), then the full grammar
 * (`!`, `-a`, `-o`, parentheses) beyond, with bash's messages and status 2 for errors.
 * @module
 */
import { unaryTest } from '../exec/cond.js';
import { compareStrings, FILE_UNARY, fileCompare } from '../exec/file-tests.js';
import type { Shell } from '../runtime/shell.js';
import { complain } from './support.js';
import type { Builtin } from './types.js';

const UNARY = new Set([...FILE_UNARY, '-z', '-n', '-o', '-v', '-R']);
const BINARY = new Set([
  '=',
  '==',
  '!=',
  '<',
  '>',
  '-eq',
  '-ne',
  '-lt',
  '-le',
  '-gt',
  '-ge',
  '-nt',
  '-ot',
  '-ef',
]);

class TestError extends Error {}

class Evaluator {
  private i = 0;
  constructor(
    private readonly sh: Shell,
    private readonly args: readonly string[],
  ) {}

  async run(): Promise<boolean> {
    const n = this.args.length;
    if (n === 0) return false;
    if (n <= 4) {
      const quick = await this.byCount(0, n);
      if (quick !== undefined) return quick;
    }
    const v = await this.or();
    if (this.i < n) throw new TestError(this.args[this.i] === ')' ? "`)' unexpected" : 'too many arguments');
    return v;
  }

  /** POSIX's rules for few arguments; `undefined` when they do not decide. */
  private async byCount(at: number, n: number): Promise<boolean | undefined> {
    const a = this.args;
    const w = (k: number): string => a[at + k] as string;
    switch (n) {
      case 1:
        return w(0) !== '';
      case 2:
        if (w(0) === '!') return w(1) === '';
        if (UNARY.has(w(0))) return unaryTest(this.sh, w(0), w(1));
        throw new TestError(`${w(0)}: unary operator expected`);
      case 3:
        if (BINARY.has(w(1))) return this.binary(w(0), w(1), w(2));
        if (w(1) === '-a') return w(0) !== '' && w(2) !== '';
        if (w(1) === '-o') return w(0) !== '' || w(2) !== '';
        if (w(0) === '!') return !(await this.byCount(at + 1, 2));
        if (w(0) === '(' && w(2) === ')') return w(1) !== '';
        throw new TestError(`${w(1)}: binary operator expected`);
      case 4:
        if (w(0) === '!') return !(await this.byCount(at + 1, 3));
        if (w(0) === '(' && w(3) === ')') return this.byCount(at + 1, 2);
        return undefined;
      default:
        return undefined;
    }
  }

  private async or(): Promise<boolean> {
    let v = await this.and();
    while (this.args[this.i] === '-o') {
      this.i += 1;
      const r = await this.and();
      v = v || r;
    }
    return v;
  }

  private async and(): Promise<boolean> {
    let v = await this.not();
    while (this.args[this.i] === '-a') {
      this.i += 1;
      const r = await this.not();
      v = v && r;
    }
    return v;
  }

  private async not(): Promise<boolean> {
    if (this.args[this.i] === '!') {
      this.i += 1;
      return !(await this.not());
    }
    return this.primary();
  }

  private async primary(): Promise<boolean> {
    const a = this.args;
    const w = a[this.i];
    if (w === undefined) throw new TestError('argument expected');
    if (w === '(') {
      this.i += 1;
      const v = await this.or();
      if (a[this.i] !== ')') throw new TestError("`)' expected");
      this.i += 1;
      return v;
    }
    const next = a[this.i + 1];
    if (next !== undefined && BINARY.has(next) && a[this.i + 2] !== undefined) {
      this.i += 3;
      return this.binary(w, next, a[this.i - 1] as string);
    }
    if (UNARY.has(w) && next !== undefined) {
      this.i += 2;
      return unaryTest(this.sh, w, next);
    }
    this.i += 1;
    return w !== '';
  }

  private async binary(left: string, op: string, right: string): Promise<boolean> {
    switch (op) {
      case '=':
      case '==':
        return left === right;
      case '!=':
        return left !== right;
      case '<':
        return compareStrings(left, right) < 0;
      case '>':
        return compareStrings(left, right) > 0;
      case '-nt':
      case '-ot':
      case '-ef':
        return fileCompare(this.sh, op, left, right);
      default: {
        const x = integer(left);
        const y = integer(right);
        switch (op) {
          case '-eq':
            return x === y;
          case '-ne':
            return x !== y;
          case '-lt':
            return x < y;
          case '-le':
            return x <= y;
          case '-gt':
            return x > y;
          default:
            return x >= y;
        }
      }
    }
  }
}

function integer(text: string): bigint {
  const t = text.trim();
  if (!/^[+-]?[0-9]+$/.test(t)) throw new TestError(`${text}: integer expression expected`);
  return BigInt(t);
}

function testBuiltin(name: 'test' | '['): Builtin {
  return {
    name,
    synopsis: name === '[' ? '[ arg... ]' : 'test [expr]',
    help: 'Evaluate a conditional expression: file tests (-e -f -d ...), string tests (-z -n = != < >), integer comparisons (-eq -ne -lt -le -gt -ge), with ! -a -o and parentheses.',
    async run({ sh, argv }) {
      let args = argv.slice(1);
      if (name === '[') {
        if (args[args.length - 1] !== ']') {
          await complain(sh, '[', "missing `]'");
          return 2;
        }
        args = args.slice(0, -1);
      }
      try {
        return (await new Evaluator(sh, args).run()) ? 0 : 1;
      } catch (error) {
        if (error instanceof TestError) {
          await complain(sh, name, error.message);
          return 2;
        }
        throw error;
      }
    },
  };
}

export const test = testBuiltin('test');
export const bracket = testBuiltin('[');
