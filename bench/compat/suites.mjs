// The compatibility suites in test/fixtures/compat/ as cases, and how each is graded. No berth import
// here: the bench runners feed it the built package, the ratchet test the sources, and the same
// cases run against the real GNU tools for the baseline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the suites are: $BERTH_COMPAT_DIR, else the copies kept in test/fixtures/compat. */
export function compatDir(repoRoot) {
  return process.env.BERTH_COMPAT_DIR ?? join(repoRoot, 'test', 'fixtures', 'compat');
}

const GREP_FILES = ['gnu-bre.tests', 'gnu-ere.tests', 'gnu-spencer1.tests', 'gnu-spencer2.tests'];

/**
 * GNU grep's regex tables, graded as GNU grep's own harness grades them: each
 * `status@pattern@input` line is `echo 'input' | grep -G|-E -e 'pattern'` (`bre` files use `-G`,
 * the others `-E`), and it passes when grep's exit status is the expected one. Lines with a fourth
 * field (`@TO CORRECT`) are GNU's list of its own known departures, which its harness does not
 * run; comment lines (`#`, including notes such as `# SKIP` left by other implementations) are not
 * cases and do not remove the case after them. The input is taken literally (`""` is two quote
 * characters, as `echo '""'` prints). This is the grading the suites' published figures use
 * (640 cases; GNU grep 3.8 passes 611).
 */
export function loadGrepCases(dir) {
  const cases = [];
  for (const file of GREP_FILES) {
    const lines = readFileSync(join(dir, 'grep', file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('#')) return;
      const parts = line.split('@');
      if (parts.length !== 3) return;
      cases.push({
        id: `${file}:${i + 1}`,
        argv: ['grep', file.includes('bre') ? '-G' : '-E', '-e', parts[1]],
        stdin: `${parts[2]}\n`,
        expectedStatus: Number(parts[0]),
      });
    });
  }
  return cases;
}

export function gradeGrep(c, outcome) {
  return outcome.status === c.expectedStatus;
}

const SED_FILES = ['pythonsed-unit.suite', 'pythonsed-chang.suite'];
const SED_SCRIPT = 'test-tmp-script.sed';
const SED_INPUT = 'test-tmp-script.inp';
// A delimiter line starts with three equal non-blank characters (`---`, `***`, `==========`).
const SED_DELIMITER = /^(\S)\1\1/;

/**
 * PythonSed's suites, graded as PythonSed's own suite runner grades them. A case is a delimiter
 * line followed by four sections (title, script, input, expected output), each ended by a line
 * that starts with the same three characters; an empty script, input or expected output reuses
 * the previous case's. The script is a file given with `-f` (so a first line `#n` is sed's own
 * business, as POSIX says), with `-r` added when the first line starts with `#r` or `#nr`; the
 * input is a file operand. Expected output `???` means sed must fail. This is the grading the
 * suites' published figures use (196 cases; GNU sed 4.9 passes 186).
 */
export function loadSedCases(dir) {
  const cases = [];
  for (const file of SED_FILES) {
    const lines = readFileSync(join(dir, 'sed', file), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    let prev;
    let i = 0;
    // Returns the lines after `i` up to the next line starting with `delim`, or undefined at the end.
    const section = (delim) => {
      const from = i + 1;
      i = from;
      while (i < lines.length && !lines[i].startsWith(delim)) i += 1;
      return i < lines.length ? lines.slice(from, i) : undefined;
    };
    while (i < lines.length) {
      while (i < lines.length && !SED_DELIMITER.test(lines[i])) i += 1;
      if (i >= lines.length) break;
      const start = i + 1;
      const delim = lines[i].slice(0, 3);
      const title = section(delim);
      const script = section(delim);
      const input = section(delim);
      const expected = section(delim);
      if (title === undefined || script === undefined || input === undefined || expected === undefined) break;
      i += 1;
      // `???` alone: sed must fail. An empty section reuses the previous case's expectation.
      const expectation =
        expected.length === 0
          ? prev?.expectation
          : { mustFail: expected.length === 1 && expected[0] === '???', lines: expected };
      const c = {
        script: script.length > 0 ? script : prev?.script,
        input: input.length > 0 ? input : prev?.input,
        expectation,
      };
      if (c.script === undefined || c.input === undefined || c.expectation === undefined) {
        throw new Error(`${file}:${start}: the first case of a suite must give its script, input and output`);
      }
      prev = c;
      const first = c.script[0];
      const extended = first.startsWith('#r') || first.startsWith('#nr');
      cases.push({
        id: `${file}:${start}`,
        title: title.join(' '),
        argv: ['sed', ...(extended ? ['-r'] : []), '-f', SED_SCRIPT, SED_INPUT],
        stdin: '',
        files: { [SED_SCRIPT]: `${c.script.join('\n')}\n`, [SED_INPUT]: `${c.input.join('\n')}\n` },
        mustFail: c.expectation.mustFail,
        expected: c.expectation.mustFail ? '' : `${c.expectation.lines.join('\n')}\n`,
      });
    }
  }
  return cases;
}

export function gradeSed(c, outcome) {
  if (c.mustFail) return outcome.status !== 0;
  return outcome.status === 0 && outcome.stdout === c.expected;
}

/** Read a ratchet file: one case id a line. */
export function readRatchet(path) {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    return [];
  }
}
