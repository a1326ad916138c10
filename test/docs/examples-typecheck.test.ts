/**
 * The README's and the docs' code examples compile against the package as published: each block
 * that imports berth is written as a module inside the repository (so `berth/...` resolves through
 * the package's own `exports` to the built declarations) and type-checked with the project's
 * compiler settings. An example that names a removed export or a wrong option fails here.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { berthCodeBlocks } from './code-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

it('every berth code block in README.md and docs/ type-checks against the built package', () => {
  const blocks = berthCodeBlocks(repo);
  expect(blocks.length).toBeGreaterThan(10);
  const dir = join(repo, 'node_modules', '.berth-doc-examples');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const names = new Map<string, string>();
  blocks.forEach((b, i) => {
    const name = `example-${i}.ts`;
    names.set(name, b.id);
    // A block is a module of its own: top-level await and its own names.
    writeFileSync(join(dir, name), `${b.source}\nexport {};\n`);
  });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: { rootDir: '.', noEmit: true, noUnusedLocals: false },
      include: ['*.ts'],
    }),
  );
  let output = '';
  try {
    execFileSync(join(repo, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], {
      cwd: repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Name the doc block, not the generated file, in the failure.
  const readable = output.replace(/example-(\d+)\.ts/g, (m) => names.get(m) ?? m);
  expect(readable).toBe('');
});
