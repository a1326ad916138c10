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
 * GNU grep's regex tables: `status@pattern@input` per line; `bre` files use `grep -G`, the others
 * `grep -E`; `""` is an empty input line. A case after a `# SKIP` comment is skipped (the table
 * says it cannot be graded). A case passes when grep's exit status is the expected one.
 */
export function loadGrepCases(dir) {
  const cases = [];
  for (const file of GREP_FILES) {
    const lines = readFileSync(join(dir, 'grep', file), 'utf8').split('\n');
    let skip = false;
    lines.forEach((line, i) => {
      if (line.startsWith('# SKIP')) {
        skip = true;
        return;
      }
      if (line === '' || line.startsWith('#')) return;
      const parts = line.split('@');
      if (parts.length < 3) return;
      if (!skip) {
        const input = parts[2] === '""' ? '' : parts[2];
        cases.push({
          id: `${file}:${i + 1}`,
          argv: ['grep', file.includes('bre') ? '-G' : '-E', '-e', parts[1]],
          stdin: `${input}\n`,
          expectedStatus: Number(parts[0]),
        });
      }
      skip = false;
    });
  }
  return cases;
}

export function gradeGrep(c, outcome) {
  return outcome.status === c.expectedStatus;
}

const SED_FILES = ['pythonsed-unit.suite', 'pythonsed-chang.suite'];

/**
 * PythonSed's suites: blocks of `---`-separated title, script, input and expected output; an
 * empty input or output reuses the previous case's; `???` means sed must fail. A first script
 * line `#n`, `#r` or `#nr` stands for the -n / -r options. A case passes when stdout is the
 * expected output (and the status 0), or, for `???`, when the status is not 0.
 */
export function loadSedCases(dir) {
  const cases = [];
  for (const file of SED_FILES) {
    const lines = readFileSync(join(dir, 'sed', file), 'utf8').split('\n');
    let i = 0;
    let prevInput = '';
    let prevExpected = '';
    const section = () => {
      const out = [];
      while (i < lines.length && lines[i] !== '---') out.push(lines[i++]);
      i += 1;
      return out;
    };
    while (i < lines.length) {
      if (lines[i] !== '---') {
        i += 1;
        continue;
      }
      const start = i + 1;
      i += 1;
      const title = section();
      if (i >= lines.length) break;
      const script = section();
      const input = section();
      const expected = section();
      const inputText = input.length === 0 ? prevInput : `${input.join('\n')}\n`;
      const expectedText = expected.length === 0 ? prevExpected : `${expected.join('\n')}\n`;
      prevInput = inputText;
      prevExpected = expectedText;
      const flags = [];
      const m = /^#([nr]+)$/.exec(script[0] ?? '');
      if (m !== null) {
        if (m[1].includes('n')) flags.push('-n');
        if (m[1].includes('r')) flags.push('-r');
      }
      cases.push({
        id: `${file}:${start}`,
        title: title.join(' '),
        argv: ['sed', ...flags, script.join('\n')],
        stdin: inputText,
        mustFail: expectedText === '???\n',
        expected: expectedText,
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
