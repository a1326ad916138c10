// Runs every bench/*.bench.mjs in turn against the built package (dist/) and prints its report.
// Goals are ratios against a baseline measured in the same run, never absolute timings.
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const files = readdirSync(new URL('.', import.meta.url))
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => !only || name.includes(only))
  .sort();
let failedGoals = 0;
for (const name of files) {
  const mod = await import(new URL(name, import.meta.url).href);
  console.log(`\n## ${mod.title ?? name}`);
  const rows = await mod.run();
  for (const row of rows) {
    const verdict = row.met === undefined ? '' : row.met ? '  [goal met]' : '  [goal MISSED]';
    if (row.met === false) failedGoals++;
    console.log(`- ${row.name}: ${row.value}${row.goal ? ` (goal ${row.goal})` : ''}${verdict}`);
  }
}
console.log(`\n${failedGoals === 0 ? 'all goals met' : `${failedGoals} goal(s) missed`}`);
