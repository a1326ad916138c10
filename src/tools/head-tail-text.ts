/**
 * Head + tail truncation of text for a model's budget. The cut prefers line boundaries and never
 * splits a surrogate pair, so what the model sees is always well-formed text.
 * @module
 */

/** The two kept ends of a text that did not fit, and what was left out between them. */
export interface HeadTailCut {
  readonly head: string;
  readonly tail: string;
  readonly omittedChars: number;
  /** Line breaks inside the omitted middle. */
  readonly omittedLines: number;
}

/** Share of the budget the cut may give up to land on a line boundary. */
const LINE_SNAP = 0.2;

/**
 * Split `text` into a head and a tail that together hold at most `budgetChars` characters (half
 * each), or `null` when the text fits.
 */
export function cutHeadTail(text: string, budgetChars: number): HeadTailCut | null {
  if (text.length <= budgetChars) return null;
  const half = Math.max(1, Math.floor(budgetChars / 2));
  let headEnd = half;
  const headBreak = text.lastIndexOf('\n', headEnd - 1);
  if (headBreak >= 0 && headBreak + 1 >= headEnd - half * LINE_SNAP) headEnd = headBreak + 1;
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;

  let tailStart = text.length - half;
  const tailBreak = text.indexOf('\n', tailStart);
  if (tailBreak >= 0 && tailBreak + 1 <= tailStart + half * LINE_SNAP) tailStart = tailBreak + 1;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  if (tailStart < headEnd) tailStart = headEnd;

  const middle = text.slice(headEnd, tailStart);
  return {
    head: text.slice(0, headEnd),
    tail: text.slice(tailStart),
    omittedChars: middle.length,
    omittedLines: countLineBreaks(middle),
  };
}

/** Number of `\n` in `text`. */
export function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The cut text with `marker` on a line of its own between head and tail. */
export function joinCut(cut: HeadTailCut, marker: string): string {
  const head = cut.head.length === 0 || cut.head.endsWith('\n') ? cut.head : `${cut.head}\n`;
  return `${head}${marker}\n${cut.tail}`;
}
