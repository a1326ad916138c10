/**
 * The jq compatibility ratchet: every case listed in test/fixtures/compat/jq-passing.txt (jq's own
 * test files, graded as `jq --run-tests` grades them) must still pass. `node bench/compat/jq.mjs`
 * reports the whole suite's pass rate; `--update` rewrites the list.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JS module shared with the bench runner
import { gradeJqCase, loadJqCases } from '../../../bench/compat/jq-cases.mjs';
// @ts-expect-error -- plain JS module shared with the bench runner
import { readRatchet } from '../../../bench/compat/runner.mjs';
import { createCooperate } from '../../../src/commands/cooperate.js';
import { JqCompileError } from '../../../src/commands/jq/errors.js';
import { evaluateJq } from '../../../src/commands/jq/evaluate.js';
import { parseJsonText } from '../../../src/commands/jq/json-parse.js';
import { toJsonText } from '../../../src/commands/jq/json-print.js';
import { valuesEqual } from '../../../src/commands/jq/value.js';

const fixtures = fileURLToPath(new URL('../../fixtures/compat/', import.meta.url));
const engine = { evaluateJq, parseJsonText, valuesEqual, JqCompileError, toJsonText, createCooperate };

interface Case {
  readonly id: string;
  readonly program: string;
}

describe('jq compat ratchet', () => {
  const cases = loadJqCases(`${fixtures}jq`) as Case[];
  const listed = readRatchet(`${fixtures}jq-passing.txt`) as Set<string>;

  it('lists cases that exist', () => {
    const ids = new Set(cases.map((c) => c.id));
    expect([...listed].filter((id) => !ids.has(id))).toEqual([]);
    expect(listed.size).toBeGreaterThan(0.9 * cases.length);
  });

  it('still passes every listed case', async () => {
    const failures: string[] = [];
    for (const c of cases) {
      if (!listed.has(c.id)) continue;
      const r = (await gradeJqCase(c, engine)) as { pass: boolean; detail: string };
      if (!r.pass) failures.push(`${c.id}: ${c.program} -- ${r.detail}`);
    }
    expect(failures).toEqual([]);
  });
});
