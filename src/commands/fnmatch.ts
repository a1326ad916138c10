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

const cache = new Map<string, (name: string) => boolean>();

/** Whether `name` matches the shell pattern `pattern`. */
export function fnmatch(
  pattern: string,
  name: string,
  options: { readonly ignoreCase?: boolean } = {},
): boolean {
  const icase = options.ignoreCase === true;
  const key = `${icase ? 'i' : 's'}${pattern}`;
  let matcher = cache.get(key);
  if (matcher === undefined) {
    matcher = compileFnmatch(pattern, options);
    if (cache.size > 500) cache.clear();
    cache.set(key, matcher);
  }
  return matcher(name);
}

/**
 * `pattern` made once into a test of names, for a caller that matches many (find's `-name`). A
 * pattern of literal text and `*` only (`*.ts`, `test_*`, `*.test.*`) is matched with string
 * searches, the rest by the token matcher.
 */
export function compileFnmatch(
  pattern: string,
  options: { readonly ignoreCase?: boolean } = {},
): (name: string) => boolean {
  const icase = options.ignoreCase === true;
  const tokens = tokenize(pattern, icase);
  const literal = literalParts(tokens);
  if (literal !== undefined) {
    return icase
      ? (name) => matchLiteralParts(literal, name.toLowerCase())
      : (name) => matchLiteralParts(literal, name);
  }
  return (name) => matchTokens(tokens, [...(icase ? name.toLowerCase() : name)]);
}

/**
 * The literal runs between the stars of a pattern of literal characters and stars only, else
 * undefined. Not where a literal holds a surrogate: a string search could then start or end
 * inside a name's surrogate pair, where the token matcher compares whole code points.
 */
function literalParts(tokens: readonly Token[]): string[] | undefined {
  const parts = [''];
  for (const tok of tokens) {
    if (tok.kind === 'star') parts.push('');
    else if (tok.kind === 'char' && !/[\uD800-\uDFFF]/.test(tok.ch)) parts[parts.length - 1] += tok.ch;
    else return undefined;
  }
  return parts;
}

/**
 * Whether `name` is `parts` joined by runs of any text: the first part a prefix, the last a suffix,
 * each one between found leftmost after the one before (leftmost is enough with only stars between).
 */
function matchLiteralParts(parts: readonly string[], name: string): boolean {
  const first = parts[0] as string;
  if (parts.length === 1) return name === first;
  const last = parts[parts.length - 1] as string;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last))
    return false;
  const end = name.length - last.length;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    const found = name.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
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
