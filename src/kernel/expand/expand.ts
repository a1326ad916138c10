/**
 * Word expansion in bash's order: brace expansion, then (left to right) tilde, parameter,
 * command and arithmetic expansion and process substitution, then word splitting, pathname
 * expansion and quote removal. Each entry point is one context bash expands words in: command
 * arguments (all of it), assignment values and `[[` operands (no splitting or globbing),
 * patterns (quoted characters stay literal), regular expressions, redirection targets.
 * @module
 */
import { commandSubstitution, processSubstitution } from '../exec/substitution.js';
import { limitReached } from '../limits.js';
import { arith } from '../runtime/arith-scope.js';
import { CancelControl } from '../runtime/control.js';
import { discard, ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import type { Word, WordPart } from '../syntax/ast.js';
import { Parser } from '../syntax/parser.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import { parseWord } from '../syntax/word-parser.js';
import { BraceLimitError, expandBraceText } from './brace.js';
import { expandParam } from './param.js';
import { expandPathname, splitGlobIgnore } from './pathname.js';
import { hasPatternMagic, quotePattern, unquotePattern } from './pattern.js';
import { type Field, fieldText, isBreak, joinPieces, type Piece, type Seg, splitFields } from './segments.js';
import type { Replacement } from './string-ops.js';
import { expandSyncParts, isSyncParts, syncPieces } from './sync-word.js';

/** A segment that is a pattern construct (an extglob): `p` is its pattern text. */
type PatternSeg = Seg & { readonly p?: string };

// ---------------------------------------------------------------------------------------------
// Entry points

/** Expand command words to fields: every expansion, splitting, globbing. */
export async function expandWords(sh: Shell, words: readonly Word[]): Promise<string[]> {
  const out: string[] = [];
  for (const word of words) {
    const simple = simpleLiteral(word);
    if (simple !== undefined) {
      out.push(simple);
      continue;
    }
    if (!word.braces && isSyncParts(word.parts)) {
      // No brace expansion and nothing that needs a promise to expand: only globbing may.
      const fields = splitFields(syncPieces(sh, word.parts, false), getVar(sh, 'IFS'));
      for (const f of fields) {
        const text = plainField(sh, f);
        if (text !== undefined) out.push(text);
        else out.push(...(await globField(sh, f)));
      }
      continue;
    }
    const expanded = await braceExpand(sh, word);
    const extglob = sh.opts.s('extglob');
    for (let i = 0; i < expanded.length; i += 1) {
      const item = expanded[i] as Word | string;
      if ((i & 255) === 255) await yieldPoint(sh);
      if (typeof item === 'string' && PLAIN.test(item)) {
        out.push(item);
        continue;
      }
      const w = typeof item === 'string' ? braceWord(item, extglob) : item;
      const pieces = await expandPieces(sh, w.parts, false);
      const fields = splitFields(pieces, getVar(sh, 'IFS'));
      for (const f of fields) out.push(...(await globField(sh, f)));
    }
  }
  return out;
}

/** Expand one word without splitting or globbing (quote removal only). `"$@"` joins with spaces. */
export async function expandToString(sh: Shell, word: Word): Promise<string> {
  const simple = simpleLiteral(word);
  if (simple !== undefined) return simple;
  if (isSyncParts(word.parts)) return expandSyncParts(sh, word.parts);
  return joinPieces(await expandPieces(sh, word.parts, false));
}

/** An assignment's value: like {@link expandToString}; `$*` joins with the first IFS character. */
export async function expandAssignment(sh: Shell, word: Word): Promise<string> {
  return expandToString(sh, word);
}

/** Expand a pattern word: quoted characters are backslash-quoted, the rest stays special. */
export async function expandToPattern(sh: Shell, word: Word): Promise<string> {
  const pieces = await expandPieces(sh, word.parts, false);
  let out = '';
  for (const p of pieces) {
    if (isBreak(p)) out += ' ';
    else out += patternText(p);
  }
  return out;
}

/** Expand a regular expression (`=~`): quoted characters match themselves. */
export async function expandToRegex(sh: Shell, word: Word): Promise<string> {
  const pieces = await expandPieces(sh, word.parts, false);
  let out = '';
  for (const p of pieces) {
    if (isBreak(p)) out += ' ';
    else out += p.q ? p.s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') : p.s;
  }
  return out;
}

/** A `${x/p/r}` replacement: text with `&` (unquoted) standing for the match. */
export async function expandReplacement(sh: Shell, word: Word): Promise<Replacement> {
  const pieces = await expandPieces(sh, word.parts, false);
  const useAmp = sh.opts.s('patsub_replacement');
  const out: (string | { match: true })[] = [];
  for (const p of pieces) {
    if (isBreak(p)) {
      out.push(' ');
      continue;
    }
    if (p.q || !useAmp) {
      out.push(p.s);
      continue;
    }
    let text = '';
    for (let i = 0; i < p.s.length; i += 1) {
      const c = p.s[i] as string;
      if (c === '\\' && i + 1 < p.s.length) {
        text += p.s[i + 1];
        i += 1;
      } else if (c === '&') {
        if (text !== '') out.push(text);
        text = '';
        out.push({ match: true });
      } else text += c;
    }
    if (text !== '') out.push(text);
  }
  return out;
}

/** A redirection target: exactly one field (else `ambiguous redirect`). */
export async function expandRedirectTarget(sh: Shell, word: Word): Promise<string> {
  const simple = simpleLiteral(word);
  if (simple !== undefined) return simple;
  // `> a-{one,two}` brace-expands to two names: ambiguous, as in bash.
  if (word.braces && (await braceExpand(sh, word)).length > 1)
    throw new ShellError(`${word.text ?? ''}: ambiguous redirect`);
  const pieces = await expandPieces(sh, word.parts, false);
  const fields = splitFields(pieces, getVar(sh, 'IFS'));
  const names: string[] = [];
  for (const f of fields) names.push(...(await globField(sh, f)));
  if (names.length !== 1) throw new ShellError(`${word.text ?? ''}: ambiguous redirect`);
  return names[0] as string;
}

// ---------------------------------------------------------------------------------------------
// Internals

/** The word's text when it is plain text (nothing to expand): no promise needed. */
export function simpleLiteral(word: Word): string | undefined {
  if (word.braces) return undefined;
  const parts = word.parts;
  if (parts.length === 0) return undefined;
  if (parts.length === 1) {
    const p = parts[0] as WordPart;
    if (p.type === 'lit' && !/[*?[]/.test(p.value)) return p.value;
    if (p.type === 'sq') return p.value;
  }
  return undefined;
}

const braceCache = new Map<string, Word>();

/** Brace expansion on the word's text; each result re-read as a word. */
/** Text a brace expansion made that needs no parsing: no quoting, expansion, pattern or tilde. */
const PLAIN = /^[A-Za-z0-9_.,/:%^+-]+$/;

/** Give the host's event loop its turn during a long expansion (a huge brace expansion). */
async function yieldPoint(sh: Shell): Promise<void> {
  const wait = sh.rt.cooperate();
  if (wait !== undefined) await wait;
  if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
}

/** The words of brace expansion: the word itself, or the texts it expanded to (to parse). */
async function braceExpand(sh: Shell, word: Word): Promise<readonly (Word | string)[]> {
  if (!word.braces || word.text === undefined || !sh.opts.o('braceexpand')) return [word];
  let texts: string[] | undefined;
  try {
    texts = await expandBraceText(word.text, sh.rt.limits.maxBraceExpansion, () => yieldPoint(sh));
  } catch (error) {
    if (error instanceof BraceLimitError) {
      throw limitReached(sh.rt.limits, 'maxBraceExpansion', `a brace expansion of ${error.words} words`);
    }
    throw error;
  }
  return texts ?? [word];
}

/** One text of a brace expansion, parsed as a word (cached: loops expand the same words). */
function braceWord(t: string, extglob: boolean): Word {
  const key = `${extglob ? 1 : 0}${t}`;
  let w = braceCache.get(key);
  if (w === undefined) {
    let parsed: ReturnType<typeof parseWord>;
    // A backquote that ends the text is bash's bare backquote, kept as a character.
    let bare = false;
    try {
      parsed = parseWord(new Parser(t, { extglob: () => extglob }), 'command');
    } catch (error) {
      if (!(error instanceof ShellSyntaxError && error.kind === 'unmatched' && error.detail === '`'))
        throw error;
      if (t.endsWith('`')) {
        bare = true;
        parsed = parseWord(new Parser(t.slice(0, -1), { extglob: () => extglob }), 'command');
      } else {
        // `{z..A}` makes the word -`- (bash parses what brace expansion made): an expansion error.
        throw discard(`bad substitution: no closing "\`" in ${t.slice(t.indexOf('`'))}`);
      }
    }
    const parts = parsed === undefined ? [] : parsed.word.parts;
    if (bare) w = { parts: [...parts, { type: 'lit', value: '`' }], text: t };
    else w = parsed === undefined ? { parts: [] } : { parts, text: t };
    if (braceCache.size > 4096) braceCache.clear();
    braceCache.set(key, w);
  }
  return w;
}

function patternText(p: PatternSeg): string {
  if (p.p !== undefined) return p.p;
  return p.q ? quotePattern(p.s) : p.s;
}

/** Expand parts to pieces (no splitting yet). */
export async function expandPieces(sh: Shell, parts: readonly WordPart[], inDq: boolean): Promise<Piece[]> {
  const out: Piece[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'lit':
        out.push({ s: part.value, q: inDq, x: false });
        break;
      case 'esc':
      case 'sq':
        out.push({ s: part.value, q: true, x: false });
        break;
      case 'dq': {
        const inner = await expandPieces(sh, part.parts, true);
        const hasList = part.parts.some((p) => p.type === 'param' && isListParam(p));
        if (!hasList) out.push({ s: '', q: true, x: false });
        out.push(...inner);
        break;
      }
      case 'param':
        out.push(...(await expandParam(sh, part, inDq)));
        break;
      case 'cmdsub': {
        const text = await commandSubstitution(sh, part.body);
        out.push({ s: text, q: inDq, x: true });
        break;
      }
      case 'arith': {
        const only = part.expr.parts.length === 1 ? (part.expr.parts[0] as WordPart) : undefined;
        const text =
          only?.type === 'lit' ? only.value : joinPieces(await expandPieces(sh, part.expr.parts, true));
        out.push({ s: String(arith(sh, text)), q: inDq, x: true });
        break;
      }
      case 'procsub':
        out.push({ s: await processSubstitution(sh, part), q: true, x: false });
        break;
      case 'tilde':
        out.push(tildePiece(sh, part.user, inDq));
        break;
      case 'extglob': {
        const alts: string[] = [];
        let literal = '';
        for (const alt of part.alternatives) {
          const pat = await expandToPattern(sh, alt);
          alts.push(pat);
          literal += (literal === '' ? '' : '|') + unquotePattern(pat);
        }
        const seg: PatternSeg = {
          s: `${part.op}(${literal})`,
          q: inDq,
          x: false,
          p: `${part.op}(${alts.join('|')})`,
        };
        out.push(seg);
        break;
      }
    }
  }
  return out;
}

function isListParam(p: WordPart): boolean {
  if (p.type !== 'param') return false;
  if (p.length) return false;
  if (p.prefixNames === '@') return true;
  if (p.op?.kind === 'default') return false;
  return p.name === '@' || p.index === '@';
}

function tildePiece(sh: Shell, user: string, inDq: boolean): Seg {
  let home: string | undefined;
  if (user === '') home = getVar(sh, 'HOME') ?? sh.rt.identity.home;
  else if (user === '+') home = getVar(sh, 'PWD');
  else if (user === '-') home = getVar(sh, 'OLDPWD');
  else if (user === sh.rt.identity.user) home = sh.rt.identity.home;
  else if (user === 'root') home = '/root';
  if (home === undefined) return { s: `~${user}`, q: inDq, x: false };
  return { s: home, q: true, x: false };
}

/** The field's text when pathname expansion leaves it alone (no pattern, or `set -f`). */
function plainField(sh: Shell, f: Field): string | undefined {
  if (sh.opts.o('noglob')) return fieldText(f);
  const extglob = sh.opts.s('extglob');
  for (const s of f as PatternSeg[]) {
    if (!s.q && (s.p !== undefined || hasPatternMagic(s.s, extglob))) return undefined;
  }
  return fieldText(f);
}

/** Pathname expansion of one field (or the field itself). */
async function globField(sh: Shell, f: Field): Promise<string[]> {
  const text = fieldText(f);
  if (sh.opts.o('noglob')) return [text];
  const extglob = sh.opts.s('extglob');
  let magic = false;
  let pattern = '';
  for (const s of f as PatternSeg[]) {
    if (!s.q && (s.p !== undefined || hasPatternMagic(s.s, extglob))) magic = true;
    pattern += patternText(s);
  }
  if (!magic) return [text];
  const ignoreVar = getVar(sh, 'GLOBIGNORE');
  const matches = await expandPathname(
    sh.rt.fs,
    sh.cwd,
    pattern,
    {
      dotglob: sh.opts.s('dotglob'),
      extglob,
      globstar: sh.opts.s('globstar'),
      nocaseglob: sh.opts.s('nocaseglob'),
      globskipdots: sh.opts.s('globskipdots'),
      ignore: ignoreVar === undefined || ignoreVar === '' ? [] : splitGlobIgnore(ignoreVar),
    },
    sh.rt.cooperate,
  );
  if (matches.length > 0) return matches;
  if (sh.opts.s('failglob')) throw new ShellError(`no match: ${text}`, 1, 'discard', true);
  if (sh.opts.s('nullglob')) return [];
  return [text];
}
