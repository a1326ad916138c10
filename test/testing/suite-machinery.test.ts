// The suite's verdicts, observed from outside: each fixture file runs the suite against a small
// hand-written context in a child vitest, and the test reads that run's report.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const vitestBin = join(repo, 'node_modules/vitest/vitest.mjs');
const config = fileURLToPath(new URL('./fixtures/vitest.config.ts', import.meta.url));

interface CaseReport {
  readonly id: string;
  readonly fullName: string;
  readonly status: string;
  readonly failure: string;
}

interface FixtureRun {
  readonly exitCode: number | null;
  /** Everything the default reporter printed (hook errors appear only here). */
  readonly output: string;
  readonly cases: ReadonlyMap<string, CaseReport>;
}

let reports: string;
beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), 'berth-suite-machinery-'));
});
afterAll(async () => {
  await rm(reports, { recursive: true, force: true });
});

async function runFixture(name: string, ...extraArgs: string[]): Promise<FixtureRun> {
  const jsonPath = join(reports, `${name}-${Math.random().toString(36).slice(2)}.json`);
  const args = [
    vitestBin,
    'run',
    '--config',
    config,
    // Load the config without bundling it into a temp file beside it.
    '--configLoader=runner',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${jsonPath}`,
    ...extraArgs,
    `${name}.fixture.ts`,
  ];
  const child = spawn(process.execPath, args, {
    cwd: repo,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const report = JSON.parse(await readFile(jsonPath, 'utf8')) as {
    testResults: {
      assertionResults: { fullName: string; title: string; status: string; failureMessages: string[] }[];
    }[];
  };
  const cases = new Map<string, CaseReport>();
  for (const file of report.testResults) {
    for (const a of file.assertionResults) {
      const id = a.title.split(':')[0] ?? a.title;
      cases.set(id, { id, fullName: a.fullName, status: a.status, failure: a.failureMessages.join('\n') });
    }
  }
  return { exitCode, output, cases };
}

function caseOf(run: FixtureRun, id: string): CaseReport {
  const found = run.cases.get(id);
  if (!found) throw new Error(`case ${id} is not in the report; got ${[...run.cases.keys()].join(', ')}`);
  return found;
}

describe('conformance suite machinery', () => {
  it('passes a faithful file-only context, registering only the cases its capabilities allow', async () => {
    const run = await runFixture('memory-pass');
    expect(run.exitCode, run.output).toBe(0);
    const failing = [...run.cases.values()].filter((c) => c.status !== 'passed');
    expect(failing).toEqual([]);
    expect(caseOf(run, 'files/overwrite').status).toBe('passed');
    expect(caseOf(run, 'capabilities/shell-refused').status).toBe('passed');
    expect(caseOf(run, 'capabilities/glob-refused').status).toBe('passed');
    // No shell, no stream, no background: those sections are absent, not skipped.
    for (const id of run.cases.keys())
      expect(id).not.toMatch(/^(exec|output|cancel|background|stream|terminal|glob)\//);
    expect([...run.cases.values()].some((c) => c.status === 'skipped' || c.status === 'pending')).toBe(false);
  });

  it('fails a context that claims a capability without its method, or has a method it disclaims', async () => {
    const run = await runFixture('broken-shape');
    expect(run.exitCode).toBe(1);
    const stream = caseOf(run, 'capabilities/shape-stream');
    expect(stream.status).toBe('failed');
    expect(stream.failure).toContain('capabilities.stream is true but execStream is not a function');
    const terminal = caseOf(run, 'capabilities/shape-terminal');
    expect(terminal.status).toBe('failed');
    expect(terminal.failure).toContain('capabilities.terminal is false but openTerminal is not undefined');
    // The claimed capability's section still runs, and fails, rather than vanishing.
    expect(caseOf(run, 'stream/echo-round-trip').status).toBe('failed');
  });

  it('reports a listed failure as expected, and fails a listed case that passes (stale entry)', async () => {
    const run = await runFixture('expected-failures');
    expect(run.exitCode).toBe(1);
    const expectedFailure = caseOf(run, 'files/file-size');
    expect(expectedFailure.status).toBe('passed');
    expect(expectedFailure.fullName).toContain('[expected failure]');
    const stale = caseOf(run, 'files/overwrite');
    expect(stale.status).toBe('failed');
    expect(stale.failure).toContain('files/overwrite is listed in expectedFailures but passed');
    const failed = [...run.cases.values()].filter((c) => c.status === 'failed').map((c) => c.id);
    expect(failed).toEqual(['files/overwrite']);
  });

  it('fails when expectedFailures names an unknown case or one that does not apply', async () => {
    const run = await runFixture('unknown-ids');
    expect(run.exitCode).toBe(1);
    const check = caseOf(run, 'suite/expected-failures');
    expect(check.status).toBe('failed');
    expect(check.failure).toContain('files/no-such-case');
    expect(check.failure).toContain('stream/echo-round-trip');
  });

  it('fails the run when a claimed capability was never exercised', async () => {
    const run = await runFixture('unexercised');
    expect(run.exitCode).toBe(1);
    expect([...run.cases.values()].every((c) => c.status === 'passed')).toBe(true);
    expect(run.output).toContain(
      'unexercised claims capabilities.filesystem but no case exercising it passed',
    );
  });

  it('fails the run when every case of a claimed capability is listed as an expected failure', async () => {
    const run = await runFixture('all-listed');
    expect(run.exitCode).toBe(1);
    const fileCases = [...run.cases.values()].filter((c) => c.id.startsWith('files/'));
    expect(fileCases.length).toBeGreaterThan(3);
    // Each listed case failed as declared, so each passes as a test; the run still fails.
    expect(fileCases.every((c) => c.status === 'passed' && c.fullName.includes('[expected failure]'))).toBe(
      true,
    );
    expect(run.output).toContain(
      'all-listed claims capabilities.filesystem but no case exercising it passed',
    );
  });

  it('fails the cases whose declared handle visibility or leftover policy does not match what it observes', async () => {
    const run = await runFixture('wrong-declarations');
    expect(run.exitCode).toBe(1);
    expect(caseOf(run, 'handles/destroy-running-exec').failure).toContain("handles are declared 'isolated'");
    expect(caseOf(run, 'handles/destroy-ends-leftovers').failure).toContain(
      "declare leftovers: 'ended-on-return'",
    );
  });

  it('catches real defects in a real backend, case by case (the checks are not vacuous)', async () => {
    const run = await runFixture('process-mutants');
    expect(run.exitCode).toBe(1);
    const status = Object.fromEntries([...run.cases.values()].map((c) => [c.id, c.status]));
    expect(status).toEqual({
      'suite/expected-failures': 'passed',
      'exec/exit-codes': 'passed',
      'exec/stdout-stderr-separated': 'failed',
      'cancel/timeout-kills-tree': 'failed',
      'containment/symlink-file': 'failed',
      'containment/inside-allowed': 'passed',
      'glob/star': 'failed',
      'glob/no-match': 'passed',
      'files/read-range': 'failed',
    });
    expect(caseOf(run, 'cancel/timeout-kills-tree').failure).toMatch(
      /descendant \d+ still runs after the call settled/,
    );
    expect(caseOf(run, 'containment/symlink-file').failure).toContain('must not leak a size');
    // The run also names the capabilities this subset never exercised.
    expect(run.output).toMatch(/process-mutants claims .*capabilities\.stream/);
  });

  it("fails the file when the context factory fails, with the factory's error", async () => {
    const run = await runFixture('broken-factory');
    expect(run.exitCode).toBe(1);
    expect(run.output).toContain('the engine socket /nowhere.sock is not there');
    expect([...run.cases.values()].filter((c) => c.status === 'passed')).toEqual([]);
  });

  it('does not let a filtered run look green', async () => {
    const run = await runFixture('memory-pass', '-t', 'capabilities/declared');
    expect(run.exitCode).toBe(1);
    expect(caseOf(run, 'capabilities/declared').status).toBe('passed');
    expect(run.output).toContain('memory claims capabilities.filesystem but no case exercising it passed');
  });
});
