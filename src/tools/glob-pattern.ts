/**
 * The built-in search's file filter, in ripgrep's `--glob` sense, on the one glob engine of
 * `berth/vfs` (linear-time matching, no regular expressions). Syntax: `*` (any characters but
 * `/`), `**` (any number of directories), `?`, `[abc]` / `[!abc]`, `{a,b}`, `\` escapes.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import { compileSegment, expandBraces, type GlobSegment, matchParts } from '../vfs/glob.js';

/** True when `s` has a glob metacharacter (`* ? [ ] { }`). */
export function hasGlobMeta(s: string): boolean {
  return /[*?[\]{}]/.test(s);
}

/**
 * A predicate in ripgrep's `--glob` sense: a pattern without `/` matches the file name at any depth,
 * one with `/` matches the path relative to the search root. A leading `!` negates.
 * @throws Error on an unclosed `[` or `{` (ripgrep refuses those too), InvalidArgumentError on a
 *   pattern too long or with too many brace alternatives.
 */
export function globFilter(glob: string): (relativePath: string) => boolean {
  const negate = glob.startsWith('!');
  const body = negate ? glob.slice(1) : glob;
  assertClosed(body);
  const anchored = body.includes('/');
  const alternatives: GlobSegment[][] = expandBraces(anchored ? body.replace(/^\//, '') : body).map(
    (pattern) => pattern.split('/').map(compileSegment),
  );
  return (relativePath) => {
    const parts = anchored
      ? relativePath.split('/')
      : [relativePath.slice(relativePath.lastIndexOf('/') + 1)];
    return alternatives.some((segments) => matchParts(segments, parts).full) !== negate;
  };
}

/** Refuse an unclosed `[` or `{`, as ripgrep does, rather than read it as a literal. */
function assertClosed(glob: string): void {
  let braces = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '\\') index++;
    else if (char === '{') braces++;
    else if (char === '}' && braces > 0) braces--;
    else if (char === '[') {
      let close = index + 1;
      if (glob[close] === '!' || glob[close] === '^') close++;
      if (glob[close] === ']') close++;
      while (close < glob.length && glob[close] !== ']') close += glob[close] === '\\' ? 2 : 1;
      if (close >= glob.length)
        throw new InvalidArgumentError('pattern', `unclosed "[" in glob ${JSON.stringify(glob)}`);
      index = close;
    }
  }
  if (braces > 0) throw new InvalidArgumentError('pattern', `unclosed "{" in glob ${JSON.stringify(glob)}`);
}
