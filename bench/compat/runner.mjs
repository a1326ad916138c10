// The compatibility runners' shared part: a ratchet of passing case ids kept in a text file (one
// id per line, sorted), and a report of the pass rate. Each suite's runner (jq.mjs, ...) finds
// its cases and grades them; this module only counts and compares.
import { readFileSync, writeFileSync } from 'node:fs';

/** The ids listed in a ratchet file (missing file: none). */
export function readRatchet(file) {
  try {
    return new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#')),
    );
  } catch (error) {
    if (error.code === 'ENOENT') return new Set();
    throw error;
  }
}

/** Write the passing ids (sorted) with a header line. */
export function writeRatchet(file, header, ids) {
  writeFileSync(file, `# ${header}\n${[...ids].sort().join('\n')}\n`);
}

/**
 * Summarize graded cases: `results` is `[{ id, group, pass, detail }]`. Returns the counts and
 * the listed cases that no longer pass (a ratchet regression).
 */
export function summarize(results, ratchet) {
  const groups = new Map();
  for (const r of results) {
    const g = groups.get(r.group) ?? { passed: 0, total: 0 };
    g.total += 1;
    if (r.pass) g.passed += 1;
    groups.set(r.group, g);
  }
  const passed = results.filter((r) => r.pass).length;
  const regressions = results.filter((r) => !r.pass && ratchet.has(r.id));
  const fresh = results.filter((r) => r.pass && !ratchet.has(r.id));
  return { passed, total: results.length, groups, regressions, fresh };
}

export function percent(passed, total) {
  return total === 0 ? '0.0%' : `${((100 * passed) / total).toFixed(1)}%`;
}
