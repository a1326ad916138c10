/**
 * The public API is deliberate: every subpath's declared API (each export's full declaration, its
 * runtime kind, and the declarations it reaches that no subpath exports; see `signatures.ts`) is
 * compared with the committed snapshot in `test/api/snapshot/`, so adding, removing or changing
 * an export, a parameter type, a return type or an option field shows up in review. Regenerate it
 * on purpose with `npm run api:snapshot`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { entryPointsOf, specifierOf, subpathsOf } from './entry-points.js';
import { declaredApi } from './signatures.js';
import { surfaceOf } from './surface.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const snapshotDir = join(repo, 'test/api/snapshot');
const subpaths = subpathsOf(repo);
const REGENERATE = 'run `npm run api:snapshot` if the change is deliberate';

/** `berth` -> `berth.api.txt`, `berth/docker` -> `berth-docker.api.txt`. */
function snapshotFile(specifier: string): string {
  return `${specifier.replace(/\//g, '-')}.api.txt`;
}

describe('the public API', () => {
  let declared: Record<string, string> = {};
  beforeAll(async () => {
    declared = declaredApi(repo, await entryPointsOf(repo));
    if (process.env.UPDATE_API_SNAPSHOT === '1') {
      rmSync(snapshotDir, { recursive: true, force: true });
      mkdirSync(snapshotDir, { recursive: true });
      for (const [specifier, text] of Object.entries(declared))
        writeFileSync(join(snapshotDir, snapshotFile(specifier)), text);
    }
  });

  it('has one committed snapshot per subpath, and none for a subpath that is gone', () => {
    const committed = readdirSync(snapshotDir).filter((f) => f.endsWith('.api.txt'));
    expect(committed.sort(), REGENERATE).toEqual(subpaths.map((s) => snapshotFile(specifierOf(s))).sort());
  });

  it.each(subpaths.map((s) => specifierOf(s)))('%s matches its committed snapshot', (specifier) => {
    const committed = readFileSync(join(snapshotDir, snapshotFile(specifier)), 'utf8');
    expect(declared[specifier], `${specifier}: ${REGENERATE}`).toBe(committed);
  });

  it('declares every name the built entry exports at run time, with its kind', async () => {
    for (const entry of await entryPointsOf(repo)) {
      const missing = Object.entries(entry.runtimeKinds)
        .filter(
          ([name, kind]) =>
            !new RegExp(`^// ${name}: ${kind}(,|$)`, 'm').test(declared[entry.specifier] ?? ''),
        )
        .map(([name]) => name);
      expect(missing, entry.specifier).toEqual([]);
    }
  });

  it('exports each error class from the root only, not again from a backend subpath', async () => {
    const root = await surfaceOf('.', repo);
    const rootErrors = Object.keys(root).filter((n) => n.endsWith('Error') && root[n] === 'class');
    expect(rootErrors).toContain('BerthError');
    for (const subpath of subpaths.filter((s) => s !== '.')) {
      const names = Object.keys(await surfaceOf(subpath, repo));
      expect(
        names.filter((n) => rootErrors.includes(n)),
        subpath,
      ).toEqual([]);
    }
  });

  it('keeps internals out: no UTF-8 or /proc helpers, no option validators outside berth/backend', async () => {
    const internal = [
      'isContinuationByte',
      'scanProcessesShared',
      'parseProcStat',
      'describeValue',
      'settle',
    ];
    for (const subpath of subpaths.filter((s) => s !== './backend')) {
      const names = Object.keys(await surfaceOf(subpath, repo));
      expect(
        names.filter((n) => internal.includes(n)),
        subpath,
      ).toEqual([]);
    }
    const backend = await surfaceOf('./backend', repo);
    expect(backend.settle).toBe('function');
    expect(backend.BackgroundRegistry).toBe('class');
  });
});
