/**
 * The public API is deliberate: every subpath's exported names and their kinds are compared with
 * the committed snapshot, so adding, removing or changing an export shows up in review. Update
 * the snapshot on purpose with `UPDATE_API_SNAPSHOT=1 npx vitest run test/api`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Surface, surfaceOf } from './surface.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const snapshotFile = join(repo, 'test/api/exports.snapshot.json');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json');

describe('the public API', () => {
  it('matches the committed snapshot, subpath by subpath', async () => {
    const actual: Record<string, Surface> = {};
    for (const subpath of subpaths) actual[subpath] = await surfaceOf(subpath, repo);
    if (process.env.UPDATE_API_SNAPSHOT === '1')
      writeFileSync(snapshotFile, `${JSON.stringify(actual, null, 2)}\n`);
    expect(existsSync(snapshotFile), 'no snapshot: run UPDATE_API_SNAPSHOT=1 npx vitest run test/api').toBe(
      true,
    );
    const expected = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Record<string, Surface>;
    expect(actual).toEqual(expected);
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
