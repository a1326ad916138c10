/**
 * grep's patterns as one compiled regex: newline-separated patterns split, `-F` strings escaped,
 * `-i -w -x` applied; GNU's messages for bad patterns.
 * @module
 */
import { compileRegex, type Regex } from '../../regex/index.js';
import type { GrepOptions } from './options.js';

/** `-F` text as an ERE matching it literally. */
function escapeFixed(s: string): string {
  return s.replace(/[\\^$.[\]|()*+?{}]/g, '\\$&');
}

/**
 * Compile `patterns` (already split at newlines); null when there are none (`-f /dev/null`),
 * which matches nothing. Throws RegexSyntaxError.
 */
export function compileGrepPatterns(patterns: readonly string[], o: GrepOptions): Regex | null {
  if (patterns.length === 0) return null;
  const fixed = o.syntax === 'fixed';
  const list = fixed ? patterns.map(escapeFixed) : [...patterns];
  return compileRegex(list, {
    syntax: o.syntax === 'bre' ? 'bre' : o.syntax === 'pcre' ? 'pcre' : 'ere',
    dialect: 'grep',
    ignoreCase: o.ignoreCase,
    wordMatch: o.word,
    lineMatch: o.line,
    dotMatchesNewline: false,
  });
}

/** Split each -e / -f pattern at newlines, as GNU does (a pattern per line). */
export function splitPatterns(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of raw) out.push(...p.split('\n'));
  return out;
}
