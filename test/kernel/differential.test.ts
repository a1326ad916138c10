/**
 * The kernel against real bash: every case runs in `bash -c` and in the kernel, in identical
 * fresh directories; status, stdout, stderr and the files left behind must be the same byte for
 * byte. The cases the kernel is known to get wrong are listed, with the reason, in
 * cases/known-differences.ts; a listed case that starts agreeing fails too (take it off the list).
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ALL_CASES } from './cases/index.js';
import { KNOWN_DIFFERENCES } from './cases/known-differences.js';
import { haveBash, runBash, runKernel } from './support/bash-oracle.js';

const bash = haveBash();

describe.skipIf(!bash)('kernel vs bash', () => {
  it('has no duplicate case names and no stale known differences', () => {
    const names = ALL_CASES.map((c) => c.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(Object.keys(KNOWN_DIFFERENCES).filter((n) => !names.includes(n))).toEqual([]);
  });
  for (const c of ALL_CASES) {
    const known = KNOWN_DIFFERENCES[c.name];
    it(c.name, async () => {
      const expected = runBash(c);
      const got = await runKernel(c);
      if (known === undefined) {
        // Real bash answers a few job-timing cases differently from run to run (`wait -n`,
        // `disown` after `wait`): an answer of the kernel that bash gives in a second run is bash's.
        const again = isDeepStrictEqual(got, expected) ? expected : runBash(c);
        expect(got).toEqual(isDeepStrictEqual(got, again) ? again : expected);
      } else
        expect(
          got,
          `listed as a known difference (${known}) but the kernel now agrees: unlist it`,
        ).not.toEqual(expected);
    });
  }
});
