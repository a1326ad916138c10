/**
 * The README's and the docs' examples that need nothing but this machine run as written, with
 * real processes and the real sandbox: the only change is that the placeholder project directory
 * (`/home/me/project`, `/path/to/repo`, ...) becomes a fresh temporary workspace. Each must exit 0.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { berthCodeBlocks } from './code-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
/** Blocks that run on a bare machine; the others need an engine, a service or a test runner. */
const RUNNABLE = [
  'README.md#1',
  'README.md#2',
  'docs/limits.md#1',
  'docs/process.md#1',
  'docs/process.md#2',
  'docs/sandbox.md#1',
  'docs/subprocess.md#1',
  'docs/tools.md#1',
  'docs/vfs.md#1',
  'docs/virtual.md#1',
];
const PLACEHOLDER_DIR = /'\/(?:home\/[a-z]+|path\/to)\/[a-z]+'/g;

// Inside the package (not under node_modules) so that `berth/...` resolves to the package itself.
const dir = join(repo, '.doc-examples-run');
const workspace = mkdtempSync(join(tmpdir(), 'berth-doc-example-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

describe('the docs examples run', () => {
  const blocks = berthCodeBlocks(repo).filter((b) => RUNNABLE.includes(b.id));

  it('finds every listed example (a renamed doc or a moved block shows here)', () => {
    expect(blocks.map((b) => b.id).sort()).toEqual([...RUNNABLE].sort());
  });

  it.each(RUNNABLE)('%s exits 0', (id) => {
    const block = blocks.find((b) => b.id === id);
    expect(block, id).toBeDefined();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(workspace, 'src'), { recursive: true });
    const source = (block?.source ?? '').replace(
      PLACEHOLDER_DIR,
      JSON.stringify(workspace).replace(/"/g, "'"),
    );
    writeFileSync(join(dir, 'example.ts'), `${source}\nexport {};\n`);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../tsconfig.json',
        compilerOptions: { rootDir: '.', outDir: 'out', noEmit: false, noUnusedLocals: false },
        include: ['example.ts'],
      }),
    );
    execFileSync(join(repo, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: repo });
    const run = spawnSync(process.execPath, [join(dir, 'out', 'example.js')], {
      cwd: workspace,
      encoding: 'utf8',
      timeout: 120_000,
      killSignal: 'SIGKILL',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  });
});
