/**
 * Pathname expansion over the virtual filesystem: a pattern is split at `/`, literal components
 * are taken as they are, each pattern component is matched against a directory's entries, `**`
 * recurses with `globstar`; dot files need an explicit dot unless `dotglob`; `.` and `..` are
 * never matched by a wildcard (`globskipdots`); results are sorted and filtered by `GLOBIGNORE`.
 * @module
 */
import type { Cooperate } from '../../commands/cooperate.js';
import type { Filesystem } from '../../vfs/filesystem.js';
import { hasPatternMagic, Pattern, unquotePattern } from './pattern.js';

export interface GlobOptions {
  readonly dotglob: boolean;
  readonly extglob: boolean;
  readonly globstar: boolean;
  readonly nocaseglob: boolean;
  readonly globskipdots: boolean;
  /** `GLOBIGNORE` patterns (colon-separated in the variable). */
  readonly ignore: readonly string[];
}

/** Paths matching `pattern` (backslash-quoted), relative to `cwd` when the pattern is relative. */
export async function expandPathname(
  fs: Filesystem,
  cwd: string,
  pattern: string,
  options: GlobOptions,
  cooperate: Cooperate,
  maxEntries = 1_000_000,
): Promise<string[]> {
  const absolute = pattern.startsWith('/');
  const components = splitComponents(absolute ? pattern.replace(/^\/+/, '') : pattern);
  let paths: string[] = [absolute ? '/' : ''];
  const dotglob = options.dotglob || options.ignore.length > 0;
  let seen = 0;
  for (let ci = 0; ci < components.length; ci += 1) {
    const comp = components[ci] as string;
    const last = ci === components.length - 1;
    const next: string[] = [];
    if (comp === '') {
      // `a//b` or a trailing slash: keep the separator.
      for (const p of paths) next.push(`${p}/`);
      paths = next;
      continue;
    }
    if (options.globstar && comp === '**') {
      for (const p of paths) {
        next.push(...(await walkTree(fs, cwd, p, dotglob, cooperate, last)));
        seen += next.length;
        if (seen > maxEntries) throw new Error(`pathname expansion matched more than ${maxEntries} entries`);
      }
      paths = [...new Set(next)];
      continue;
    }
    if (!hasPatternMagic(comp, options.extglob)) {
      const name = unquotePattern(comp);
      for (const p of paths) next.push(join(p, name));
      paths = next;
      continue;
    }
    const matcher = Pattern.compile(comp, { extglob: options.extglob, nocase: options.nocaseglob });
    const explicitDot = unquotePattern(comp).startsWith('.');
    for (const p of paths) {
      const dir = resolve(cwd, p === '' ? '.' : p);
      let entries: string[];
      try {
        const st = await fs.stat(dir);
        if (st.type !== 'directory') continue;
        entries = (await fs.readdir(dir)).map((e) => e.name);
      } catch {
        continue;
      }
      const candidates =
        explicitDot && !options.globskipdots ? ['.', '..', ...entries] : explicitDot ? entries : entries;
      for (const name of candidates) {
        if (name.startsWith('.') && !explicitDot && !dotglob) continue;
        if ((name === '.' || name === '..') && options.globskipdots) continue;
        if (matcher.matches(name)) next.push(join(p, name));
      }
      seen += entries.length;
      if (seen > maxEntries) throw new Error(`pathname expansion read more than ${maxEntries} entries`);
      await cooperate();
    }
    paths = next;
    if (paths.length === 0) return [];
  }
  // Literal components must exist.
  const out: string[] = [];
  for (const p of paths) {
    if (p === '' || p === '/') continue;
    try {
      await fs.lstat(resolve(cwd, p.replace(/\/+$/, '') || '/'));
      if (p.endsWith('/')) {
        const st = await fs.stat(resolve(cwd, p));
        if (st.type !== 'directory') continue;
      }
      out.push(p);
    } catch {
      // no such path
    }
  }
  const filtered = options.ignore.length === 0 ? out : out.filter((p) => !ignored(p, options));
  return filtered.sort(compareBytes);
}

function ignored(path: string, options: GlobOptions): boolean {
  const base = path.replace(/\/+$/, '');
  const name = base.slice(base.lastIndexOf('/') + 1);
  if (name === '.' || name === '..') return true;
  // As fnmatch with FNM_PATHNAME: `*.txt` does not reach into `foo/two.txt`.
  const parts = path.split('/');
  return options.ignore.some((g) => {
    const segments = g.split('/');
    return (
      segments.length === parts.length &&
      segments.every((seg, i) =>
        Pattern.compile(seg, { extglob: options.extglob }).matches(parts[i] as string),
      )
    );
  });
}

/** `GLOBIGNORE`'s patterns: colon-separated, a colon inside `[...]` (`[[:alnum:]]`) kept. */
export function splitGlobIgnore(value: string): string[] {
  const out: string[] = [];
  let from = 0;
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === '\\') i += 2;
    else if (c === '[') i = bracketEnd(value, i);
    else if (c === ':') {
      out.push(value.slice(from, i));
      i += 1;
      from = i;
    } else i += 1;
  }
  out.push(value.slice(from));
  return out.filter((p) => p !== '');
}

/** Just past the bracket expression opened at `open` (or past the `[` when it never closes). */
function bracketEnd(value: string, open: number): number {
  let i = open + 1;
  if (value[i] === '!' || value[i] === '^') i += 1;
  if (value[i] === ']') i += 1;
  while (i < value.length) {
    const c = value[i];
    if (c === ']') return i + 1;
    if (c === '[' && (value[i + 1] === ':' || value[i + 1] === '=' || value[i + 1] === '.')) {
      const close = value.indexOf(`${value[i + 1]}]`, i + 2);
      if (close === -1) return open + 1;
      i = close + 2;
      continue;
    }
    i += 1;
  }
  return open + 1;
}

/** Byte order (strcmp in C.UTF-8), which is code point order. */
export function compareBytes(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i += 1) {
    const c = (x[i] as string).codePointAt(0) as number;
    const d = (y[i] as string).codePointAt(0) as number;
    if (c !== d) return c - d;
  }
  return x.length - y.length;
}

function splitComponents(pattern: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      cur += c + pattern[i + 1];
      i += 1;
      continue;
    }
    if (c === '/') {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

function join(dir: string, name: string): string {
  if (dir === '') return name;
  if (dir.endsWith('/')) return dir + name;
  return `${dir}/${name}`;
}

function resolve(cwd: string, p: string): string {
  if (p.startsWith('/')) return normalize(p);
  return normalize(`${cwd}/${p}`);
}

function normalize(p: string): string {
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** `**`: the directory itself and every directory below (every file too when last). */
async function walkTree(
  fs: Filesystem,
  cwd: string,
  start: string,
  dotglob: boolean,
  cooperate: Cooperate,
  includeFiles: boolean,
): Promise<string[]> {
  // A last `**` after a directory lists the directory itself as `dir/`, as bash does.
  const out: string[] = [start !== '' && includeFiles && !start.endsWith('/') ? `${start}/` : start];
  const stack: string[] = [start];
  while (stack.length > 0) {
    const p = stack.pop() as string;
    let entries: Awaited<ReturnType<Filesystem['readdir']>>;
    try {
      entries = await fs.readdir(resolve(cwd, p === '' ? '.' : p));
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') && !dotglob) continue;
      const child = join(p, e.name);
      let isDir = e.type === 'directory';
      if (e.type === 'symlink') {
        isDir = false;
      }
      if (isDir) {
        out.push(child);
        stack.push(child);
      } else if (includeFiles) out.push(child);
    }
    await cooperate();
  }
  if (!includeFiles) return out;
  return out.filter((p) => p !== '');
}
