/**
 * The entry points of a package folder, read from its `package.json` `exports`: each subpath's
 * specifier, its declaration file and (when the package can be imported) its runtime names with
 * their kind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryPoint } from './signatures.js';
import { surfaceOf } from './surface.js';

interface Manifest {
  readonly name: string;
  readonly exports: Record<string, { types: string } | string>;
}

/** The subpaths of `package.json` `exports` that have declarations (not `./package.json`). */
export function subpathsOf(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
  return Object.keys(pkg.exports).filter((k) => typeof pkg.exports[k] !== 'string');
}

/** `berth` for `.`, `berth/docker` for `./docker`. */
export function specifierOf(subpath: string, packageName = 'berth'): string {
  return subpath === '.' ? packageName : `${packageName}/${subpath.slice(2)}`;
}

/**
 * The entry points of the package at `root`. `runtime: false` skips importing it (a copy in a
 * temporary folder cannot be imported as `berth`): every name is then described as a type.
 */
export async function entryPointsOf(root: string, runtime = true): Promise<EntryPoint[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
  const entries: EntryPoint[] = [];
  for (const subpath of subpathsOf(root)) {
    const entry = pkg.exports[subpath] as { types: string };
    const surface = runtime ? await surfaceOf(subpath, root) : {};
    const runtimeKinds = Object.fromEntries(Object.entries(surface).filter(([, kind]) => kind !== 'type'));
    entries.push({
      specifier: specifierOf(subpath, pkg.name),
      typesFile: join(root, entry.types),
      runtimeKinds,
    });
  }
  return entries;
}
