/**
 * POSIX extended regular expressions for `[[ =~ ]]`, translated to the host's regular
 * expressions (bracket expressions with classes, `\<`, `\>`, anchors). Until the kernel's own
 * linear-time engine is wired in, a pattern is refused when its shape could backtrack
 * catastrophically (a quantified group holding a quantifier), so no script can hang the host.
 * @module
 */

export interface CompiledEre {
  /** Groups of the leftmost match (`[0]` the whole match), or `null`. */
  exec(text: string): (string | undefined)[] | null;
}

export class EreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EreError';
  }
}

const CLASSES: Readonly<Record<string, string>> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: '0-9a-zA-Z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
  word: '0-9A-Za-z_',
};

export function compileEre(pattern: string, nocase: boolean): CompiledEre {
  const source = translate(pattern);
  if (dangerous(source)) {
    throw new EreError('regular expression too complex for the kernel (nested repetition)');
  }
  let re: RegExp;
  try {
    re = new RegExp(source, nocase ? 'i' : '');
  } catch {
    throw new EreError('invalid regular expression');
  }
  return {
    exec(text: string) {
      const m = re.exec(text);
      return m === null ? null : [...m];
    },
  };
}

/** A quantifier applied to a group that itself contains a quantifier: `(a+)+`, `(a|a*)*`. */
function dangerous(source: string): boolean {
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push(false);
    else if (c === ')') {
      const inner = stack.pop() ?? false;
      const next = source[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      if (quantified && inner && next !== '?') return true;
      if (stack.length > 0 && (inner || quantified)) stack[stack.length - 1] = true;
    } else if ((c === '*' || c === '+' || c === '{') && stack.length > 0) stack[stack.length - 1] = true;
  }
  return false;
}

function translate(p: string): string {
  let out = '';
  for (let i = 0; i < p.length; i += 1) {
    const c = p[i] as string;
    if (c === '\\') {
      const d = p[i + 1];
      i += 1;
      if (d === undefined) out += '\\\\';
      else if (d === '<') out += '\\b(?=\\w)';
      else if (d === '>') out += '\\b(?<=\\w)';
      else if ('wWsSbB'.includes(d)) out += `\\${d}`;
      else out += /[A-Za-z0-9]/.test(d) ? d : `\\${d}`;
      continue;
    }
    if (c === '[') {
      const end = bracketEnd(p, i);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      out += translateBracket(p.slice(i + 1, end));
      i = end;
      continue;
    }
    if (c === '{' && !/^\{[0-9]+(,[0-9]*)?\}/.test(p.slice(i))) {
      out += '\\{';
      continue;
    }
    if (c === '/') {
      out += '\\/';
      continue;
    }
    out += c;
  }
  return out;
}

function bracketEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === '^') i += 1;
  if (p[i] === ']') i += 1;
  for (; i < p.length; i += 1) {
    if (p[i] === '[' && (p[i + 1] === ':' || p[i + 1] === '=' || p[i + 1] === '.')) {
      const close = p.indexOf(`${p[i + 1]}]`, i + 2);
      if (close === -1) return -1;
      i = close + 1;
      continue;
    }
    if (p[i] === ']') return i;
  }
  return -1;
}

function translateBracket(body: string): string {
  let out = '[';
  let i = 0;
  if (body[0] === '^') {
    out += '^';
    i = 1;
  }
  for (; i < body.length; i += 1) {
    const c = body[i] as string;
    if (c === '[' && body[i + 1] === ':') {
      const close = body.indexOf(':]', i + 2);
      const name = body.slice(i + 2, close);
      out += CLASSES[name] ?? '';
      i = close + 1;
      continue;
    }
    if (c === '[' && (body[i + 1] === '=' || body[i + 1] === '.')) {
      const close = body.indexOf(`${body[i + 1]}]`, i + 2);
      out += body.slice(i + 2, close).replace(/[\\\]^-]/g, '\\$&');
      i = close + 1;
      continue;
    }
    if (c === '\\' || c === ']' || (c === '^' && i > 0) || c === '[') {
      out += `\\${c}`;
      continue;
    }
    out += c;
  }
  return `${out}]`;
}
