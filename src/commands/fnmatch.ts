/**
 * `fnmatch(3)` without flags, as GNU grep's `--include`/`--exclude` and find's `-name` use it:
 * `*`, `?`, bracket expressions (`[a-z]`, `[!x]`, `[^x]`, `[[:alpha:]]`) and backslash escapes;
 * `*` matches a leading dot and `/` (no FNM_PATHNAME, no FNM_PERIOD). Matching is the two-pointer
 * algorithm (back up only to the last `*`), O(pattern × name): no pattern can make it blow up.
 * @module
 */

type Token =
  | { readonly kind: 'char'; readonly ch: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'star' }
  | { readonly kind: 'class'; readonly test: RegExp };

const cache = new Map<string, Token[]>();

/** Whether `name` matches the shell pattern `pattern`. */
export function fnmatch(
  pattern: string,
  name: string,
  options: { readonly ignoreCase?: boolean } = {},
): boolean {
  const icase = options.ignoreCase === true;
  const key = `${icase ? 'i' : 's'}${pattern}`;
  let tokens = cache.get(key);
  if (tokens === undefined) {
    tokens = tokenize(pattern, icase);
    if (cache.size > 500) cache.clear();
    cache.set(key, tokens);
  }
  return matchTokens(tokens, [...(icase ? name.toLowerCase() : name)]);
}

function matchTokens(tokens: readonly Token[], chars: readonly string[]): boolean {
  let t = 0;
  let c = 0;
  let starT = -1;
  let starC = 0;
  while (c < chars.length) {
    const tok = tokens[t];
    if (tok !== undefined && tok.kind === 'star') {
      starT = t;
      starC = c;
      t += 1;
      continue;
    }
    if (tok !== undefined && matchesOne(tok, chars[c] as string)) {
      t += 1;
      c += 1;
      continue;
    }
    if (starT < 0) return false;
    t = starT + 1;
    starC += 1;
    c = starC;
  }
  while (tokens[t]?.kind === 'star') t += 1;
  return t === tokens.length;
}

function matchesOne(tok: Token, ch: string): boolean {
  switch (tok.kind) {
    case 'char':
      return tok.ch === ch;
    case 'any':
      return true;
    case 'class':
      return tok.test.test(ch);
    default:
      return false;
  }
}

const CLASSES: Readonly<Record<string, string>> = {
  alpha: '\\p{L}',
  digit: '0-9',
  alnum: '\\p{L}0-9',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  blank: ' \\t',
  punct: '\\p{P}\\p{S}',
  print: '\\P{C}',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
  cntrl: '\\p{Cc}',
  xdigit: '0-9A-Fa-f',
};

function tokenize(p: string, icase: boolean): Token[] {
  const chars = [...(icase ? p.toLowerCase() : p)];
  const out: Token[] = [];
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] as string;
    if (c === '*') {
      if (out[out.length - 1]?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'any' });
    else if (c === '\\' && i + 1 < chars.length) {
      i += 1;
      out.push({ kind: 'char', ch: chars[i] as string });
    } else if (c === '[') {
      const parsed = bracket(chars, i, icase);
      if (parsed === undefined) out.push({ kind: 'char', ch: '[' });
      else {
        out.push({ kind: 'class', test: parsed.test });
        i = parsed.end;
      }
    } else out.push({ kind: 'char', ch: c });
  }
  return out;
}

/** A bracket expression as a one-character test (a class of one character cannot backtrack). */
function bracket(
  p: readonly string[],
  open: number,
  icase: boolean,
): { test: RegExp; end: number } | undefined {
  let i = open + 1;
  let negate = false;
  if (p[i] === '!' || p[i] === '^') {
    negate = true;
    i += 1;
  }
  let members = '';
  let first = true;
  for (; i < p.length; i += 1) {
    const c = p[i] as string;
    if (c === ']' && !first)
      return { test: new RegExp(`^[${negate ? '^' : ''}${members}]$`, icase ? 'iu' : 'u'), end: i };
    first = false;
    if (c === '[' && p[i + 1] === ':') {
      const rest = p.slice(i + 2).join('');
      const close = rest.indexOf(':]');
      const cls = close === -1 ? undefined : CLASSES[rest.slice(0, close)];
      if (cls !== undefined) {
        members += cls;
        i += 2 + close + 1;
        continue;
      }
    }
    let ch = c;
    if (c === '\\' && i + 1 < p.length) {
      i += 1;
      ch = p[i] as string;
    }
    members += /[\\\]^[]/.test(ch) ? `\\${ch}` : ch === '-' && (p[i + 1] === ']' || first) ? '\\-' : ch;
  }
  return undefined;
}
