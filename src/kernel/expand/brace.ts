/**
 * Brace expansion, the first expansion, done as bash does it: on the word's text, before any
 * other expansion (so `{a,b}$x{1,2}` names `$x1`), with quoted text, `${...}`, `$(...)` and
 * backquotes left opaque. `{a,b}`, nested braces, `{x..y[..step]}` for integers (zero-padded when
 * an end is) and single characters. The size of the result is checked before it is built.
 * @module
 */

/** A piece of the word: a special brace character or opaque text. */
type Item = { readonly ch: '{' | ',' | '}' } | { readonly text: string };

export class BraceLimitError extends Error {
  constructor(readonly words: number) {
    super(`brace expansion would produce ${words} words`);
    this.name = 'BraceLimitError';
  }
}

/** Called every few thousand words: may return a promise (the host's event loop gets a turn). */
export type BracePause = () => Promise<void> | undefined;

/**
 * Expand the braces of a word's source text. Resolves `undefined` when the text has no valid
 * brace expression (the word stays as parsed), else the expanded texts. A huge expansion pauses
 * now and then through `pause`, so it never holds the host.
 */
export async function expandBraceText(
  text: string,
  maxWords: number,
  pause: BracePause = () => undefined,
): Promise<string[] | undefined> {
  const items = scan(text);
  if (!items.some((i) => 'ch' in i && i.ch === '{')) return undefined;
  const out = await expandItems(items, maxWords, { pause, count: 0 });
  if (out.length === 1 && out[0] === text) return undefined;
  return out;
}

/** Whether the text holds a brace expression that expands (without expanding it). */
export function hasBraceExpansion(text: string): boolean {
  const items = scan(text);
  for (let i = 0; i < items.length; i += 1) {
    const it = items[i] as Item;
    if (!('ch' in it) || it.ch !== '{') continue;
    const close = matchingClose(items, i);
    if (close === undefined) continue;
    if (close.commas.length > 0) return true;
    const inner = items.slice(i + 1, close.at);
    if (inner.length === 1 && !('ch' in (inner[0] as Item))) {
      const t = (inner[0] as { text: string }).text;
      if (INT_SEQ.test(t) || CHAR_SEQ.test(t)) return true;
    }
  }
  return false;
}

function matchingClose(items: readonly Item[], i: number): { at: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let j = i; j < items.length; j += 1) {
    const x = items[j] as Item;
    if (!('ch' in x)) continue;
    if (x.ch === '{') depth += 1;
    else if (x.ch === '}') {
      depth -= 1;
      if (depth === 0) return { at: j, commas };
    } else if (depth === 1) commas.push(j);
  }
  return undefined;
}

interface Progress {
  readonly pause: BracePause;
  count: number;
}

/** Count `n` more words made; every 4096 the expansion pauses. */
async function made(progress: Progress, n: number): Promise<void> {
  const before = progress.count >> 12;
  progress.count += n;
  if (progress.count >> 12 !== before) {
    const wait = progress.pause();
    if (wait !== undefined) await wait;
  }
}

function scan(text: string): Item[] {
  const items: Item[] = [];
  let buf = '';
  const flush = (): void => {
    if (buf !== '') items.push({ text: buf });
    buf = '';
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === '{' || c === ',' || c === '}') {
      flush();
      items.push({ ch: c });
      i += 1;
      continue;
    }
    const end = opaqueEnd(text, i);
    buf += text.slice(i, end);
    i = end;
  }
  flush();
  return items;
}

/** The end of the opaque element starting at `i` (a quote, an escape, a `$` construct). */
function opaqueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '\\') return Math.min(i + 2, text.length);
  if (c === "'") {
    const e = text.indexOf("'", i + 1);
    return e === -1 ? text.length : e + 1;
  }
  if (c === '"') return skipDouble(text, i + 1);
  if (c === '`') {
    let j = i + 1;
    while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, text.length);
  }
  if (c === '$') {
    const d = text[i + 1];
    if (d === "'") {
      let j = i + 2;
      while (j < text.length && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
      return Math.min(j + 1, text.length);
    }
    if (d === '{') return skipBalanced(text, i + 2, '{', '}');
    if (d === '(') return skipBalanced(text, i + 2, '(', ')');
    if (d === '[') return skipBalanced(text, i + 2, '[', ']');
  }
  return i + 1;
}

function skipDouble(text: string, from: number): number {
  let j = from;
  while (j < text.length) {
    const c = text[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else if (c === '$' && (text[j + 1] === '{' || text[j + 1] === '(')) j = opaqueEnd(text, j);
    else if (c === '`') j = opaqueEnd(text, j);
    else j += 1;
  }
  return text.length;
}

function skipBalanced(text: string, from: number, open: string, close: string): number {
  let depth = 1;
  let j = from;
  while (j < text.length) {
    const c = text[j] as string;
    if (c === close) {
      depth -= 1;
      j += 1;
      if (depth === 0) return j;
      continue;
    }
    if (c === open) {
      depth += 1;
      j += 1;
      continue;
    }
    if (c === '\\' || c === "'" || c === '"' || c === '`' || c === '$') {
      j = c === '$' && text[j + 1] !== '{' && text[j + 1] !== '(' ? j + 1 : opaqueEnd(text, j);
      continue;
    }
    j += 1;
  }
  return text.length;
}

const textOf = (items: readonly Item[]): string => items.map((i) => ('ch' in i ? i.ch : i.text)).join('');

async function expandItems(items: readonly Item[], maxWords: number, progress: Progress): Promise<string[]> {
  // Find the first `{` that opens a valid brace expression.
  for (let i = 0; i < items.length; i += 1) {
    const it = items[i] as Item;
    if (!('ch' in it) || it.ch !== '{') continue;
    const found = matchingClose(items, i);
    if (found === undefined) continue;
    const { at: close, commas } = found;
    const pre = textOf(items.slice(0, i));
    const postItems = items.slice(close + 1);
    let alternatives: string[][] | undefined;
    if (commas.length > 0) {
      const bounds = [i, ...commas, close];
      alternatives = [];
      for (let k = 0; k + 1 < bounds.length; k += 1) {
        const inner = items.slice((bounds[k] as number) + 1, bounds[k + 1] as number);
        alternatives.push(await expandItems(inner, maxWords, progress));
      }
    } else {
      const inner = items.slice(i + 1, close);
      const seq =
        inner.length === 1 && !('ch' in (inner[0] as Item))
          ? await sequence((inner[0] as { text: string }).text, maxWords, progress)
          : undefined;
      if (seq !== undefined) alternatives = [seq];
    }
    if (alternatives === undefined) continue;
    const flat = alternatives.length === 1 ? (alternatives[0] as string[]) : alternatives.flat();
    const posts = await expandItems(postItems, maxWords, progress);
    const total = flat.length * posts.length;
    if (total > maxWords) throw new BraceLimitError(total);
    if (pre === '' && posts.length === 1 && posts[0] === '') return flat;
    const out: string[] = [];
    for (const a of flat) {
      for (const p of posts) out.push(pre + a + p);
      await made(progress, posts.length);
    }
    return out;
  }
  return [textOf(items)];
}

const INT_SEQ = /^(-?[0-9]+)\.\.(-?[0-9]+)(?:\.\.(-?[0-9]+))?$/;
const CHAR_SEQ = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?[0-9]+))?$/;

async function sequence(text: string, maxWords: number, progress: Progress): Promise<string[] | undefined> {
  const m = INT_SEQ.exec(text);
  if (m !== null) {
    const a = BigInt(m[1] as string);
    const b = BigInt(m[2] as string);
    let step = m[3] === undefined ? 1n : BigInt(m[3]);
    if (step < 0n) step = -step;
    if (step === 0n) step = 1n;
    const count = (a > b ? a - b : b - a) / step + 1n;
    if (count > BigInt(maxWords)) throw new BraceLimitError(Number(count > 1n << 52n ? 1n << 52n : count));
    const pad = hasLeadingZero(m[1] as string) || hasLeadingZero(m[2] as string);
    const width = pad ? Math.max((m[1] as string).length, (m[2] as string).length) : 0;
    const out: string[] = [];
    const n = Number(count);
    const safe = (x: bigint): boolean =>
      x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER);
    if (!pad && safe(a) && safe(b) && safe(step)) {
      // The common case in plain numbers (BigInt steps cost ten times as much).
      const from = Number(a);
      const by = a <= b ? Number(step) : -Number(step);
      for (let k = 0; k < n; k += 1) {
        out.push(String(from + k * by));
        if ((k & 4095) === 4095) await made(progress, 4096);
      }
      return out;
    }
    const dir = a <= b ? step : -step;
    let k = 0;
    for (let v = a; k < n; v += dir, k += 1) {
      out.push(pad ? padNumber(v, width) : String(v));
      if ((k & 4095) === 4095) await made(progress, 4096);
    }
    return out;
  }
  const c = CHAR_SEQ.exec(text);
  if (c !== null) {
    const a = (c[1] as string).charCodeAt(0);
    const b = (c[2] as string).charCodeAt(0);
    let step = c[3] === undefined ? 1 : Math.abs(Number.parseInt(c[3], 10));
    if (step === 0) step = 1;
    const out: string[] = [];
    if (a <= b) for (let v = a; v <= b; v += step) out.push(charWord(v));
    else for (let v = a; v >= b; v -= step) out.push(charWord(v));
    return out;
  }
  return undefined;
}

/**
 * A character of a range as a word. As in bash, the character is text to parse: a backslash
 * quotes itself away and a backquote opens a command substitution that never closes (an error).
 */
function charWord(code: number): string {
  const ch = String.fromCharCode(code);
  return ch === '\\' ? '""' : /[$"'\\]/.test(ch) ? `\\${ch}` : ch;
}

function hasLeadingZero(s: string): boolean {
  return /^-?0[0-9]/.test(s);
}

function padNumber(v: bigint, width: number): string {
  const neg = v < 0n;
  const digits = String(neg ? -v : v);
  const w = neg ? width - 1 : width;
  return (neg ? '-' : '') + digits.padStart(w, '0');
}
