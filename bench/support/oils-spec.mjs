// The Oils spec-test format and its grading rules, for the shell label `bash`: parse a
// `*.test.sh` file into cases, pick the expectations that apply to bash, grade an outcome.
// Shared by the compatibility runner (bench/oils-spec.mjs) and the ratchet in the test suite.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {{ stdout?: string, stderr?: string, status?: number, qualifier?: string }} Expect
 * @typedef {{ name: string, line: number, code: string, expect: Expect, byShell: Map<string, Expect> }} SpecCase
 * @typedef {{ file: string, compareShells: string[], disabled: boolean, cases: SpecCase[] }} SpecFile
 */

const KEY_VALUE = /^##\s+(?:(OK|BUG|N-I)(?:-\d+)?\s+([\w+/.-]+)\s+)?([\w-]+):\s*(.*)$/;
const END = /^##\s+END/;

/** Parse one spec file's text. */
export function parseSpecFile(file, text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  /** @type {SpecCase[]} */
  const cases = [];
  let compareShells = [];
  let disabled = false;
  let i = 0;
  const classify = (line) => {
    if (line.trim() === '') return { kind: 'blank' };
    if (line.startsWith('####')) return { kind: 'begin', name: line.slice(4).trim() };
    const kv = KEY_VALUE.exec(line);
    if (kv) {
      const [, qualifier, shells, name, value] = kv;
      const multi = name === 'STDOUT' || name === 'STDERR';
      return { kind: multi ? 'multi' : 'kv', qualifier, shells, name, value };
    }
    if (END.test(line)) return { kind: 'end' };
    if (line.trimStart().startsWith('#')) return { kind: 'comment' };
    return { kind: 'code', text: line };
  };
  // Header: file-level metadata until the first case.
  while (i < lines.length) {
    const c = classify(lines[i]);
    if (c.kind === 'begin') break;
    if (c.kind === 'kv' && c.name === 'compare_shells') compareShells = c.value.trim().split(/\s+/);
    if (c.kind === 'kv' && c.name === 'suite' && c.value.trim() === 'disabled') disabled = true;
    i++;
  }
  const skipNoise = () => {
    while (i < lines.length) {
      const k = classify(lines[i]).kind;
      if (k !== 'blank' && k !== 'comment') return;
      i++;
    }
  };
  /** Key-value metadata, contiguous (blank lines and comments between them are skipped). */
  const readMeta = (kase) => {
    for (;;) {
      skipNoise();
      if (i >= lines.length) return;
      const c = classify(lines[i]);
      if (c.kind === 'multi') {
        // Blank lines inside a block are output; without `## END`, trailing ones are not.
        const body = [];
        i++;
        for (; i < lines.length; i++) {
          const d = classify(lines[i]);
          // A `# note` line inside a block is a comment (`loop#14`), not its end.
          if (d.kind === 'comment') continue;
          if (d.kind !== 'code' && d.kind !== 'blank') break;
          body.push(lines[i]);
        }
        if (i < lines.length && classify(lines[i]).kind === 'end') i++;
        else while (body.length > 0 && body.at(-1).trim() === '') body.pop();
        const value = body.length === 0 ? '' : `${body.join('\n')}\n`;
        put(kase, c.qualifier, c.shells, c.name.toLowerCase(), value);
      } else if (c.kind === 'kv') {
        let value = c.value;
        if (c.name === 'stdout' || c.name === 'stderr') value += '\n';
        put(kase, c.qualifier, c.shells, c.name, value);
        i++;
      } else return;
    }
  };
  while (i < lines.length) {
    const begin = classify(lines[i]);
    if (begin.kind !== 'begin') {
      i++;
      continue;
    }
    const kase = { name: begin.name, line: i + 1, code: '', raw: {}, byShellRaw: new Map() };
    i++;
    readMeta(kase);
    if (kase.raw.code === undefined) {
      const code = [];
      for (; i < lines.length; i++) {
        const c = classify(lines[i]);
        if (c.kind !== 'code' && c.kind !== 'blank' && c.kind !== 'comment') break;
        code.push(lines[i]);
      }
      while (code.length > 0 && code.at(-1).trim() === '') code.pop();
      kase.code = `${code.join('\n')}\n`;
      readMeta(kase);
    } else {
      kase.code = kase.raw.code;
    }
    cases.push(finish(kase));
  }
  return { file, compareShells, disabled, cases };
}

function put(kase, qualifier, shells, name, value) {
  if (!qualifier) {
    kase.raw[name] = value;
    return;
  }
  for (const shell of shells.split('/')) {
    const entry = kase.byShellRaw.get(shell) ?? {};
    entry[name] = value;
    entry.qualifier = qualifier;
    kase.byShellRaw.set(shell, entry);
  }
}

function finish(kase) {
  return {
    name: kase.name,
    line: kase.line,
    code: kase.code,
    expect: toExpect(kase.raw),
    byShell: new Map([...kase.byShellRaw].map(([k, v]) => [k, { ...toExpect(v), qualifier: v.qualifier }])),
  };
}

function toExpect(raw) {
  const out = {};
  for (const stream of ['stdout', 'stderr']) {
    if (raw[stream] !== undefined) out[stream] = raw[stream];
    if (raw[`${stream}-json`] !== undefined) out[stream] = JSON.parse(raw[`${stream}-json`]);
  }
  if (raw.status !== undefined) out.status = Number.parseInt(raw.status, 10);
  return out;
}

/**
 * The expectations for the label `bash`: the bash-qualified ones where given, each stream
 * otherwise from the unqualified ones; status 0 when none is given.
 */
export function expectationsFor(kase, label = 'bash') {
  const own = kase.byShell.get(label) ?? {};
  const e = {};
  for (const key of ['stdout', 'stderr', 'status']) {
    if (own[key] !== undefined) e[key] = own[key];
    else if (kase.expect[key] !== undefined) e[key] = kase.expect[key];
  }
  if (e.status === undefined) e.status = 0;
  return e;
}

/** Grade an outcome (`stdout`/`stderr` as text decoded as UTF-8, `status` a number). */
export function grade(kase, outcome, label = 'bash') {
  const e = expectationsFor(kase, label);
  const problems = [];
  if (e.stdout !== undefined && outcome.stdout !== e.stdout) problems.push('stdout');
  if (e.stderr !== undefined && outcome.stderr !== e.stderr) problems.push('stderr');
  if (outcome.status !== e.status) problems.push('status');
  return { pass: problems.length === 0, problems, expected: e };
}

/** Every spec file that is graded as bash: its compare_shells names bash and it is not disabled. */
export function gradedSpecFiles(specDir) {
  return readdirSync(specDir)
    .filter((f) => f.endsWith('.test.sh'))
    .sort()
    .map((f) => parseSpecFile(f, readFileSync(join(specDir, f), 'utf8')))
    .filter((s) => !s.disabled && s.compareShells.some((sh) => sh === 'bash' || sh.startsWith('bash-')));
}

/** A stable id for a case: `file#index name`. */
export function caseId(file, index) {
  return `${file.replace(/\.test\.sh$/, '')}#${index}`;
}
