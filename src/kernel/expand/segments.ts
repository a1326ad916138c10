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

/** A field boundary between the elements of `$@`/`${a[@]}`; `q`: inside double quotes. */
export interface Break {
  readonly brk: true;
  readonly q: boolean;
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
  const emit = (): void => {
    fields.push(cur);
    cur = [];
    started = false;
  };
  for (const p of pieces) {
    if (isBreak(p)) {
      if (started || cur.length > 0 || p.q) emit();
      else {
        cur = [];
        started = false;
      }
      afterBlankDelimiter = false;
      continue;
    }
    if (p.q || !p.x || sep === '') {
      if (p.s !== '' || p.q) {
        cur.push(p);
        started = true;
        afterBlankDelimiter = false;
      }
      continue;
    }
    // An unquoted expansion: split.
    const s = p.s;
    let run = '';
    for (let i = 0; i < s.length; i += 1) {
      const c = s[i] as string;
      if (!sep.includes(c)) {
        run += c;
        afterBlankDelimiter = false;
        continue;
      }
      if (run !== '') {
        cur.push({ s: run, q: false, x: true });
        started = true;
        run = '';
      }
      if (c === ' ' || c === '\t' || c === '\n') {
        if (started) {
          emit();
          afterBlankDelimiter = true;
        }
        continue;
      }
      // A non-blank delimiter: ends the field, even an empty one.
      if (afterBlankDelimiter) {
        afterBlankDelimiter = false;
        continue;
      }
      emit();
      afterBlankDelimiter = false;
    }
    if (run !== '') {
      cur.push({ s: run, q: false, x: true });
      started = true;
    }
  }
  if (started) emit();
  return fields;
}

/** Join pieces without splitting (assignments, `[[`, heredocs): breaks become spaces. */
export function joinPieces(pieces: readonly Piece[]): string {
  let out = '';
  for (const p of pieces) out += isBreak(p) ? ' ' : p.s;
  return out;
}
