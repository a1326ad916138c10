/**
 * The public surface of each package subpath: its runtime names with their kind, read by importing
 * the built entry as a user would, and its type-only names, read from the entry's declaration file
 * (following `export *` to the files it names). No TypeScript compiler API is needed: the
 * declaration files the build writes have a small, regular shape.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type Surface = Record<string, string>;

const EXPORT_FROM = /export\s+(type\s+)?\{([^}]*)\}(?:\s+from\s+'([^']+)')?/g;
const EXPORT_STAR = /export\s+(?:type\s+)?\*\s+from\s+'([^']+)'/g;
const EXPORT_DECL =
  /export\s+(?:declare\s+)?(?:abstract\s+)?(interface|type|class|function|const|let|enum|namespace)\s+([A-Za-z_$][\w$]*)/g;

/** Every name a declaration file exports (type or value), following re-exports. */
export function declaredNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(EXPORT_FROM)) {
    for (const part of (m[2] ?? '').split(',')) {
      const spec = part.trim().replace(/^type\s+/, '');
      if (spec === '') continue;
      const alias = spec.split(/\s+as\s+/);
      names.add((alias[1] ?? alias[0] ?? '').trim());
    }
  }
  for (const m of text.matchAll(EXPORT_STAR)) {
    const target = resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.d.ts'));
    for (const n of declaredNames(target, seen)) names.add(n);
  }
  for (const m of text.matchAll(EXPORT_DECL)) names.add(m[2] ?? '');
  names.delete('');
  return names;
}

function kindOf(value: unknown): string {
  if (typeof value === 'function')
    return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The surface of one subpath: runtime names with their kind, the rest marked `type`. */
export async function surfaceOf(subpath: string, repo: string): Promise<Surface> {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    exports: Record<string, { types: string } | string>;
  };
  const entry = pkg.exports[subpath];
  if (entry === undefined || typeof entry === 'string') throw new Error(`no export entry for ${subpath}`);
  const specifier = subpath === '.' ? 'berth' : `berth/${subpath.slice(2)}`;
  const runtime = (await import(specifier)) as Record<string, unknown>;
  const surface: Surface = {};
  for (const name of declaredNames(join(repo, entry.types))) surface[name] = 'type';
  for (const [name, value] of Object.entries(runtime)) surface[name] = kindOf(value);
  return Object.fromEntries(Object.entries(surface).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
