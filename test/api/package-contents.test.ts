/**
 * What `npm install berth` ships: the build, the docs, the license and the supervisor's C source
 * (compiled on first use), nothing else (no sources,
 * tests, fixtures, benchmarks or build stamps), and every file an `exports` entry names.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
/** Files outside dist/ and docs/ that the package needs at install or run time. */
const EXTRA_FILES = ['package.json', 'README.md', 'ARCHITECTURE.md', 'LICENSE', 'native/supervise.c'];

function packedPaths(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [report] = JSON.parse(out) as { files: { path: string }[] }[];
  return (report?.files ?? []).map((f) => f.path);
}

it('packs only dist/, docs/, the readme, the architecture notes, the license and the supervisor source', () => {
  const paths = packedPaths();
  const unexpected = paths.filter(
    (p) => !(p.startsWith('dist/') || p.startsWith('docs/') || EXTRA_FILES.includes(p)),
  );
  expect(unexpected).toEqual([]);
  expect(paths.filter((p) => /\.test\.|\.build-stamp$|(^|\/)fixtures\//.test(p))).toEqual([]);
  for (const f of EXTRA_FILES) expect(paths).toContain(f);
});

it('packs every file the exports map and the bin name', () => {
  const paths = new Set(packedPaths());
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    exports: Record<string, { types: string; import: string } | string>;
    bin: Record<string, string> | string;
  };
  const named: string[] = [];
  for (const entry of Object.values(pkg.exports)) {
    if (typeof entry === 'string') named.push(entry);
    else named.push(entry.types, entry.import);
  }
  named.push(...(typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin)));
  const missing = named.map((p) => p.replace(/^\.\//, '')).filter((p) => !paths.has(p));
  expect(missing).toEqual([]);
});
