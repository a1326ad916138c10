// The jq compatibility runner: grades jq's own test files against berth's jq (the built package,
// dist/) and prints the pass rate. `--update` rewrites the ratchet (the list of passing cases the
// test suite holds berth to); `--failures` lists what fails and why.
//
//   npm run build && node bench/compat/jq.mjs [--update] [--failures]
import { fileURLToPath } from 'node:url';
import { gradeJqCase, loadJqCases } from './jq-cases.mjs';
import { percent, readRatchet, summarize, writeRatchet } from './runner.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const CASES_DIR = `${root}test/fixtures/compat/jq`;
export const RATCHET = `${root}test/fixtures/compat/jq-passing.txt`;

export async function loadEngine(base = `${root}dist/`) {
  const [evaluate, parse, value, errors, print, cooperate] = await Promise.all([
    import(`${base}commands/jq/evaluate.js`),
    import(`${base}commands/jq/json-parse.js`),
    import(`${base}commands/jq/value.js`),
    import(`${base}commands/jq/errors.js`),
    import(`${base}commands/jq/json-print.js`),
    import(`${base}commands/cooperate.js`),
  ]);
  return {
    evaluateJq: evaluate.evaluateJq,
    parseJsonText: parse.parseJsonText,
    valuesEqual: value.valuesEqual,
    JqCompileError: errors.JqCompileError,
    toJsonText: print.toJsonText,
    createCooperate: cooperate.createCooperate,
  };
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const engine = await loadEngine();
  const cases = loadJqCases(CASES_DIR);
  const results = [];
  for (const c of cases) results.push({ ...c, ...(await gradeJqCase(c, engine)) });
  const ratchet = readRatchet(RATCHET);
  const s = summarize(results, ratchet);
  for (const [group, g] of s.groups)
    console.log(`${group}: ${g.passed}/${g.total} (${percent(g.passed, g.total)})`);
  console.log(`jq compat: ${s.passed}/${s.total} cases pass (${percent(s.passed, s.total)})`);
  if (args.has('--failures')) {
    for (const r of results.filter((x) => !x.pass))
      console.log(`FAIL ${r.id}: ${r.program}\n    ${r.detail}`);
  }
  if (s.regressions.length > 0) {
    console.log(`ratchet: ${s.regressions.length} listed case(s) no longer pass:`);
    for (const r of s.regressions) console.log(`  ${r.id}: ${r.program} -- ${r.detail}`);
  }
  if (args.has('--update')) {
    writeRatchet(
      RATCHET,
      'jq compat cases that pass (bench/compat/jq.mjs --update)',
      results.filter((r) => r.pass).map((r) => r.id),
    );
    console.log(`ratchet updated: ${s.passed} cases`);
  } else if (s.fresh.length > 0) {
    console.log(`ratchet: ${s.fresh.length} case(s) pass but are not listed (run with --update)`);
  }
  process.exitCode = s.regressions.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
