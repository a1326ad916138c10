/**
 * The Oils ratchet: every spec case listed in bench/compat/oils.passing.txt must still pass
 * through the kernel over a memory filesystem (the list only grows:
 * `node bench/oils-spec.mjs --write-ratchet` rewrites it from a full run).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compatDir, readRatchet } from '../../bench/compat/suites.mjs';
import { runOilsCase, specFiles } from '../../bench/support/oils-run.mjs';
import { caseId, gradedSpecFiles, type SpecCase } from '../../bench/support/oils-spec.mjs';
import { encodeText } from '../../src/commands/byte-text.js';
import { createKernel } from '../../src/kernel/index.js';
import { createMemoryFilesystem } from '../../src/vfs/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const oils = join(compatDir(root), 'oils');

describe('Oils ratchet', () => {
  it('finds the Oils spec tests', () => {
    expect(existsSync(join(oils, 'spec')), `no Oils spec tests at ${oils} (set BERTH_COMPAT_DIR)`).toBe(true);
  });

  it('every listed case still passes', async () => {
    const listed = readRatchet(join(root, 'bench', 'compat', 'oils.passing.txt'));
    expect(listed.length).toBeGreaterThan(1000);
    const cases = new Map<string, SpecCase>();
    for (const spec of gradedSpecFiles(join(oils, 'spec')))
      spec.cases.forEach((c, i) => {
        cases.set(caseId(spec.file, i), c);
      });
    const env = {
      createKernel: createKernel as (options: unknown) => unknown,
      encodeText,
      createFs: (files: Record<string, unknown>) =>
        createMemoryFilesystem({ files } as NonNullable<Parameters<typeof createMemoryFilesystem>[0]>),
      files: specFiles(oils),
    };
    const failing: string[] = [];
    for (const id of listed) {
      const c = cases.get(id);
      if (c === undefined) {
        failing.push(`${id} (no such case)`);
        continue;
      }
      const r = await runOilsCase(env, c);
      if (!r.result.pass) failing.push(`${id} ${c.name} [${r.result.problems.join(',')}]`);
    }
    expect(failing, `listed cases failing:\n${failing.join('\n')}`).toEqual([]);
  }, 300_000);
});
