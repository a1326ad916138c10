/**
 * The intermediate form of an expanded word: segments of text that remember whether they were
 * quoted and whether they came from an expansion (only unquoted expansion results are split by
 * `IFS`), with field breaks from `"$@"`-like expansions. Word splitting exactly as bash does it.
 * @module
 */

export interface Seg {
  readonly s: string;
  /** Quoted: never split, never a pattern character. */
  readonly q: boolean;
  /** From an expansion (parameter, command, arithmetic): split by IFS when unquoted. */
  readonly x: boolean;
}

/**
 * A boundary between the elements of `$@`/`$*`/`${a[@]}`. Inside double quotes (`q`) it always
 * separates fields. Unquoted, bash joins the elements with the first character of IFS and splits
 * the result, so a boundary acts as that delimiter (with an empty IFS, elements stay separate
 * words); `sep` is what joins the elements where nothing is split (assignments).
 */
export interface Break {
  readonly brk: true;
  readonly q: boolean;
  readonly sep: string;
}

export type Piece = Seg | Break;

export const isBreak = (p: Piece): p is Break => 'brk' in p;

/** One field after splitting: its segments (kept for pattern quoting). */
export type Field = Seg[];

export function fieldText(f: Field): string {
  let out = '';
  for (const s of f) out += s.s;
  return out;
}

const DEFAULT_IFS = ' \t\n';

/** Split pieces into fields by `ifs` (`undefined`: IFS unset, the default blanks). */
export function splitFields(pieces: readonly Piece[], ifs: string | undefined): Field[] {
  const sep = ifs ?? DEFAULT_IFS;
  const fields: Field[] = [];
  let cur: Seg[] = [];
  /** The field exists even if empty (quoted text, or a non-blank IFS delimiter closed it). */
  let started = false;
  /** A blank IFS run just ended a field: a following non-blank delimiter belongs to it. */
  let afterBlankDelimiter = false;
  let run = '';
  const emit = (): void => {
    fields.push(cur);
    cur = [];
    started = false;
  };
  const flushRun = (): void => {
    if (run !== '') {
      cur.push({ s: run, q: false, x: true });
      started = true;
      run = '';
    }
  };
  /** One character of an unquoted expansion. */
  const feed = (c: string): void => {
    if (!sep.includes(c)) {
      run += c;
      afterBlankDelimiter = false;
      return;
    }
    flushRun();
    if (c === ' ' || c === '\t' || c === '\n') {
      if (started) {
        emit();
        afterBlankDelimiter = true;
      }
      return;
    }
    // A non-blank delimiter ends the field, even an empty one.
    if (afterBlankDelimiter) {
      afterBlankDelimiter = false;
      return;
    }
    emit();
  };
  for (const p of pieces) {
    if (isBreak(p)) {
      flushRun();
      if (!p.q && sep !== '') {
        feed(sep[0] as string);
        continue;
      }
      if (started || cur.length > 0 || p.q) emit();
      afterBlankDelimiter = false;
      continue;
    }
    if (p.q || !p.x || sep === '') {
      flushRun();
      if (p.s !== '' || p.q) {
        cur.push(p);
        started = true;
        afterBlankDelimiter = false;
      }
      continue;
    }
    for (let i = 0; i < p.s.length; i += 1) feed(p.s[i] as string);
    flushRun();
  }
  flushRun();
  if (started) emit();
  return fields;
}

/** Join pieces without splitting (assignments, `[[`, heredocs): breaks become spaces. */
export function joinPieces(pieces: readonly Piece[]): string {
  let out = '';
  for (const p of pieces) out += isBreak(p) ? p.sep : p.s;
  return out;
}
