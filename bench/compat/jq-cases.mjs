// jq's own test files (`*.test`) as cases, graded as jq's `--run-tests` grades them: a program, an
// input line, then the expected outputs (compared as JSON values) up to a blank or comment line;
// more outputs than expected fail, an error after the last expected output does not. `%%FAIL`
// programs must fail to compile with the given first line of the message (`%%FAIL IGNORE MSG`:
// any message). The engine is passed in, so the bench runner (over dist/) and the vitest ratchet
// (over src/) grade the same way.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const isSkip = (line) => /^[ \t]*(#|$)/.test(line);

/** Parse one test file into cases `{ id, group, kind, program, input, expected, message }`. */
export function parseJqTestFile(text, group) {
  const lines = text.split('\n');
  const cases = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isSkip(line)) {
      i += 1;
      continue;
    }
    if (line === '%%FAIL' || line === '%%FAIL IGNORE MSG') {
      const checkMessage = line === '%%FAIL';
      i += 1;
      while (i < lines.length && isSkip(lines[i])) i += 1;
      const program = lines[i];
      const at = i + 1;
      const message = lines[i + 1] ?? '';
      i += 2;
      // The rest of the message block (source line, carets) runs to a blank line.
      while (i < lines.length && lines[i].trim() !== '') i += 1;
      cases.push({ id: `${group}:${at}`, group, kind: 'fail', program, message, checkMessage });
      continue;
    }
    const program = line;
    const at = i + 1;
    const input = lines[i + 1] ?? '';
    i += 2;
    const expected = [];
    while (i < lines.length && !isSkip(lines[i])) {
      expected.push(lines[i]);
      i += 1;
    }
    cases.push({ id: `${group}:${at}`, group, kind: 'run', program, input, expected });
  }
  return cases;
}

/** Every case of every `*.test` file in `dir`. */
export function loadJqCases(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test'))
    .sort()
    .flatMap((f) => parseJqTestFile(readFileSync(join(dir, f), 'utf8'), f.replace(/\.test$/, '')));
}

/**
 * Grade one case. `engine` is `{ evaluateJq, parseJsonText, valuesEqual, JqCompileError,
 * toJsonText, createCooperate }` from the jq module; returns `{ pass, detail }`.
 */
export async function gradeJqCase(c, engine, { timeoutMs = 5000 } = {}) {
  const { evaluateJq, parseJsonText, valuesEqual, JqCompileError, toJsonText, createCooperate } = engine;
  const env = new Map([['PAGER', 'less']]);
  if (c.kind === 'fail') {
    try {
      await evaluateJq(c.program, [], { env });
    } catch (error) {
      if (!(error instanceof JqCompileError)) return { pass: false, detail: `threw ${error}` };
      const first =
        error.message
          .split('\n')
          .filter((l) => l.startsWith('jq: error'))
          .at(-1) ?? '';
      if (!c.checkMessage || first === c.message) return { pass: true, detail: '' };
      return { pass: false, detail: `wrong message: ${first}` };
    }
    return { pass: false, detail: 'compiled but should not have' };
  }
  let input;
  let expected;
  try {
    input = parseJsonText(c.input);
    expected = c.expected.map((e) => parseJsonText(e));
  } catch (error) {
    return { pass: false, detail: `malformed case: ${error.message}` };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let result;
  try {
    result = await evaluateJq(c.program, [input], {
      env,
      signal: controller.signal,
      cooperate: createCooperate(),
    });
  } catch (error) {
    return {
      pass: false,
      detail:
        error instanceof JqCompileError
          ? `compile error: ${error.message}`
          : `threw ${error?.stack ?? error}`,
    };
  } finally {
    clearTimeout(timer);
  }
  if (controller.signal.aborted) return { pass: false, detail: `timed out after ${timeoutMs} ms` };
  const got = result.outputs;
  for (let k = 0; k < expected.length; k += 1) {
    if (k >= got.length)
      return { pass: false, detail: `insufficient results (${got.length}); ${result.stderr.trim()}` };
    if (!valuesEqual(expected[k], got[k])) {
      return { pass: false, detail: `expected ${toJsonText(expected[k])}, got ${toJsonText(got[k])}` };
    }
  }
  if (got.length > expected.length)
    return { pass: false, detail: `superfluous result ${toJsonText(got[expected.length])}` };
  return { pass: true, detail: '' };
}
