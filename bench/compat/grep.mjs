// grep's compatibility: GNU grep's regex tables (test/fixtures/compat/grep). Usage:
//   node bench/compat/grep.mjs [--write-ratchet]      (after npm run build)
import { fileURLToPath } from 'node:url';
import { runSuite } from './run-suite.mjs';
import { compatDir, gradeGrep, loadGrepCases } from './suites.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = new URL('../../dist', import.meta.url).href;

export async function run({ writeRatchet = process.argv.includes('--write-ratchet') } = {}) {
  const { grepCommands } = await import(`${dist}/commands/grep/index.js`);
  const grep = grepCommands.find((c) => c.name === 'grep').run;
  const result = await runSuite({
    name: 'grep',
    cases: loadGrepCases(compatDir(root)),
    grade: gradeGrep,
    handler: grep,
    dist,
    ratchetPath: fileURLToPath(new URL('grep.passing.txt', import.meta.url)),
    writeRatchet,
  });
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  for (const row of r.rows) console.log(`- ${row.name}: ${row.value}`);
}
