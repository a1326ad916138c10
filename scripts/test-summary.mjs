// Prints vitest's JSON report as one plain closing line, "N passed, N failed, N skipped", so a
// reader of the CI log (person or machine) sees the count without parsing vitest's coloured output.
import { readFileSync } from 'node:fs';

const path = process.argv[2];
if (!path) {
  console.error('usage: node scripts/test-summary.mjs REPORT.json');
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, 'utf8'));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
