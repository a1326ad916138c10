/**
 * Glob patterns as regular expressions, for the built-in search's file filter. Syntax: `*` (any
 * characters but `/`), `**` (any number of directories), `?`, `[abc]` / `[!abc]`, `{a,b}`, `\` escapes.
 * @module
 */

/** True when `s` has a glob metacharacter (`* ? [ ] { }`). */
export function hasGlobMeta(s: string): boolean {
  return /[*?[\]{}]/.test(s);
}

/** A RegExp matching a whole slash-separated path against `glob`. Throws on an unclosed `[` or `{`. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`, 'u');
}

/**
 * A predicate in ripgrep's `--glob` sense: a pattern without `/` matches the file name at any depth,
 * one with `/` matches the path relative to the search root. A leading `!` negates.
 */
export function globFilter(glob: string): (relativePath: string) => boolean {
  const negate = glob.startsWith('!');
  const body = negate ? glob.slice(1) : glob;
  const anchored = body.includes('/');
  const re = globToRegExp(anchored ? body.replace(/^\//, '') : body);
  return (relativePath) => {
    const subject = anchored ? relativePath : relativePath.slice(relativePath.lastIndexOf('/') + 1);
    return re.test(subject) !== negate;
  };
}

function translate(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeChar(glob[++i]!);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length;
        if (atStart && glob[i + 2] === '/') {
          out += '(?:[^/]*/)*';
          i += 2;
        } else if (atStart && atEnd) {
          out += '.*';
          i += 1;
        } else {
          out += '[^/]*';
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) throw new Error(`unclosed "[" in glob ${JSON.stringify(glob)}`);
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = close;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += escapeChar(c);
    }
  }
  if (braces > 0) throw new Error(`unclosed "{" in glob ${JSON.stringify(glob)}`);
  return out;
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
