/**
 * Every error code has a class of its own, so callers can `instanceof` what they catch and read
 * its TSDoc: the code union in src/errors/ is compared with the codes the error classes pass to
 * `super` (in src/errors/ and in the backends' own errors modules).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it('gives every BerthErrorCode a class that passes it to BerthError', () => {
  const errors = readFileSync(join(src, 'errors/index.ts'), 'utf8');
  const union = /export type BerthErrorCode =([^;]*);/.exec(errors)?.[1] ?? '';
  const codes = [...union.matchAll(/'(E_[A-Z_]+)'/g)].map((m) => m[1] as string);
  expect(codes.length).toBeGreaterThan(20);
  const classCodes = new Set<string>();
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/class \w+ extends BerthError \{[\s\S]*?super\(\s*'(E_[A-Z_]+)'/g)) {
      classCodes.add(m[1] as string);
    }
  }
  expect(codes.filter((c) => !classCodes.has(c))).toEqual([]);
});
