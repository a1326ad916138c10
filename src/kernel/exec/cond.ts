/**
 * `[[ ... ]]`: no word splitting or globbing, `==`/`!=` match patterns, `=~` matches an extended
 * regular expression and fills `BASH_REMATCH`, `<`/`>` compare strings, `-eq` and friends compare
 * arithmetic expressions, and the file tests of `test`.
 * @module
 */

import { compileRegex, type Regex, RegexBudgetError, RegexSyntaxError } from '../../regex/index.js';
import { expandToPattern, expandToRegex, expandToString } from '../expand/expand.js';
import { Pattern } from '../expand/pattern.js';
import { arithRaw } from '../runtime/arith-scope.js';
import type { Shell } from '../runtime/shell.js';
import { assignArray, lookup, rawKey } from '../runtime/vars.js';
import { AssocArray, IndexedArray } from '../state/arrays.js';
import { ATTR_NAMEREF } from '../state/variables.js';
import type { CondNode } from '../syntax/ast.js';
import { compareStrings, FILE_UNARY, fileCompare, fileTest } from './file-tests.js';
import { shellMessage } from './messages.js';
import { traceText } from './xtrace.js';

export async function evaluateCond(sh: Shell, node: CondNode): Promise<boolean> {
  if (sh.opts.o('xtrace') && node !== undefined) await traceText(sh, `[[ ${await traceCond(sh, node)} ]]`);
  return evaluate(sh, node);
}

async function traceCond(sh: Shell, node: CondNode): Promise<string> {
  switch (node.type) {
    case 'and':
      return `${await traceCond(sh, node.left)} && ${await traceCond(sh, node.right)}`;
    case 'or':
      return `${await traceCond(sh, node.left)} || ${await traceCond(sh, node.right)}`;
    case 'not':
      return `! ${await traceCond(sh, node.operand)}`;
    case 'unary':
      return `${node.op} ${await expandToString(sh, node.operand)}`;
    case 'binary':
      return `${await expandToString(sh, node.left)} ${node.op} ${node.right.text ?? (await expandToString(sh, node.right))}`;
    case 'word':
      return expandToString(sh, node.word);
  }
}

async function evaluate(sh: Shell, node: CondNode): Promise<boolean> {
  switch (node.type) {
    case 'and':
      return (await evaluate(sh, node.left)) && evaluate(sh, node.right);
    case 'or':
      return (await evaluate(sh, node.left)) || evaluate(sh, node.right);
    case 'not':
      return !(await evaluate(sh, node.operand));
    case 'word':
      return (await expandToString(sh, node.word)) !== '';
    case 'unary': {
      const operand = await expandToString(sh, node.operand);
      return unaryTest(sh, node.op, operand);
    }
    case 'binary': {
      const left = await expandToString(sh, node.left);
      switch (node.op) {
        case '==':
        case '=':
        case '!=': {
          const pattern = await expandToPattern(sh, node.right);
          const m = Pattern.compile(pattern, { extglob: true, nocase: sh.opts.s('nocasematch') }).matches(
            left,
          );
          return node.op === '!=' ? !m : m;
        }
        case '=~':
          return regexMatch(sh, left, await expandToRegex(sh, node.right));
        case '<':
          return compareStrings(left, await expandToString(sh, node.right)) < 0;
        case '>':
          return compareStrings(left, await expandToString(sh, node.right)) > 0;
        case '-nt':
        case '-ot':
        case '-ef':
          return fileCompare(sh, node.op, left, await expandToString(sh, node.right));
        default: {
          const right = await expandToString(sh, node.right);
          const a = arithRaw(sh, left);
          const b = arithRaw(sh, right);
          return compareIntegers(node.op, a, b);
        }
      }
    }
  }
}

export function compareIntegers(op: string, a: bigint, b: bigint): boolean {
  switch (op) {
    case '-eq':
      return a === b;
    case '-ne':
      return a !== b;
    case '-lt':
      return a < b;
    case '-le':
      return a <= b;
    case '-gt':
      return a > b;
    case '-ge':
      return a >= b;
    default:
      return false;
  }
}

/** A unary test of `[[` and `test` (besides the file tests): `-z -n -v -o -R`. */
export async function unaryTest(sh: Shell, op: string, operand: string): Promise<boolean> {
  switch (op) {
    case '-z':
      return operand === '';
    case '-n':
      return operand !== '';
    case '-o':
      return sh.opts.o(operand);
    case '-v':
      return isSet(sh, operand);
    case '-R': {
      const f = sh.vars.find(operand);
      return f !== undefined && (f.variable.attrs & ATTR_NAMEREF) !== 0 && f.variable.value !== undefined;
    }
    default:
      if (FILE_UNARY.has(op)) return fileTest(sh, op, operand);
      return false;
  }
}

/** `-v name` / `-v 'a[i]'`. */
function isSet(sh: Shell, operand: string): boolean {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/s.exec(operand);
  if (m === null) {
    if (/^[0-9]+$/.test(operand)) return Number(operand) <= sh.positional.length && Number(operand) > 0;
    return false;
  }
  const f = lookup(sh, m[1] as string);
  if (f === undefined) return false;
  const value = f.variable.value;
  const key = m[2] === undefined || m[2] === '@' || m[2] === '*' ? m[2] : rawKey(sh, m[2]);
  if (key === undefined) {
    if (value instanceof IndexedArray) return value.has(0);
    if (value instanceof AssocArray) return value.has('0');
    return value !== undefined;
  }
  if (key === '@' || key === '*') {
    if (value instanceof IndexedArray || value instanceof AssocArray) return value.size > 0;
    return value !== undefined;
  }
  if (value instanceof AssocArray) return value.has(key);
  const index = Number(arithRaw(sh, key));
  if (value instanceof IndexedArray) {
    const i = value.resolve(index);
    if (i === undefined) sh.warnings.push(`${m[1]}: bad array subscript`);
    return i !== undefined && value.has(i);
  }
  return index === 0 && value !== undefined;
}

/** `[[ =~ ]]` with a malformed pattern: the test's status is 2. */
export class CondRegexError extends Error {}

const regexCache = new Map<string, Regex>();

function compileCondRegex(pattern: string, nocase: boolean): Regex {
  const key = `${nocase ? 'i' : '-'}${pattern}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    re = compileRegex(pattern, { syntax: 'ere', dialect: 'posix', ignoreCase: nocase });
    if (regexCache.size > 256) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

async function regexMatch(sh: Shell, text: string, regex: string): Promise<boolean> {
  let re: Regex;
  try {
    re = compileCondRegex(regex, sh.opts.s('nocasematch'));
  } catch (error) {
    if (error instanceof RegexSyntaxError) throw new CondRegexError(error.message);
    throw error;
  }
  let m: ReturnType<Regex['exec']>;
  try {
    m = re.exec(text);
  } catch (error) {
    if (error instanceof RegexBudgetError) {
      await shellMessage(sh, `[[: ${error.message}`);
      throw new CondRegexError(error.message);
    }
    throw error;
  }
  if (m === null) {
    assignArray(sh, 'BASH_REMATCH', []);
    return false;
  }
  const groups: { value: string }[] = [];
  for (let n = 0; n <= re.groupCount; n += 1) {
    groups.push({ value: n === 0 ? text.slice(m.start, m.end) : (re.group(m, text, n) ?? '') });
  }
  assignArray(sh, 'BASH_REMATCH', groups);
  return true;
}
