// sed's compatibility: PythonSed's suites (test/fixtures/compat/sed). Usage:
//   node bench/compat/sed.mjs [--write-ratchet]      (after npm run build)
import { fileURLToPath } from 'node:url';
import { runSuite } from './run-suite.mjs';
import { compatDir, gradeSed, loadSedCases } from './suites.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = new URL('../../dist', import.meta.url).href;

export async function run({ writeRatchet = process.argv.includes('--write-ratchet') } = {}) {
  const { sedCommands } = await import(`${dist}/commands/sed/index.js`);
  const sed = sedCommands[0].run;
  const result = await runSuite({
    name: 'sed',
    cases: loadSedCases(compatDir(root)),
    grade: gradeSed,
    handler: sed,
    dist,
    ratchetPath: fileURLToPath(new URL('sed.passing.txt', import.meta.url)),
    writeRatchet,
  });
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  for (const row of r.rows) console.log(`- ${row.name}: ${row.value}`);
}
