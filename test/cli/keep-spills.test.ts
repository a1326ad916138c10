// `berth run --json` copies spill files before the context goes; the copy never follows a link.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepSpills } from '../../src/cli/keep-spills.js';
import type { ExecResult, StreamFacts } from '../../src/contract/types.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-keep-spills-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const facts = (spillPath: string | null): StreamFacts => ({
  bytesTotal: 5,
  truncated: true,
  omittedBytes: 1,
  spillPath,
});
const result = (stdout: string | null): ExecResult => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  timedOut: false,
  aborted: false,
  durationMs: 1,
  stdoutFacts: facts(stdout),
  stderrFacts: facts(null),
});

describe('keepSpills', () => {
  it('copies a spill into a private directory of its own', async () => {
    const spill = join(base, 'spill.out');
    writeFileSync(spill, 'whole');
    const kept = await keepSpills(result(spill));
    expect(kept.stdoutFacts.spillPath).not.toBe(spill);
    expect(readFileSync(kept.stdoutFacts.spillPath!, 'utf8')).toBe('whole');
    rmSync(dirname(kept.stdoutFacts.spillPath!), { recursive: true });
  });

  it('refuses a spill replaced by a link, or reached through a linked directory', async () => {
    writeFileSync(join(base, 'secret'), 'SECRET');
    symlinkSync(join(base, 'secret'), join(base, 'linked.out'));
    await expect(keepSpills(result(join(base, 'linked.out')))).rejects.toThrow(/ELOOP|replaced/);
    mkdirSync(join(base, 'real'));
    writeFileSync(join(base, 'real', 'x.out'), 'SECRET');
    symlinkSync(join(base, 'real'), join(base, 'dirlink'));
    await expect(keepSpills(result(join(base, 'dirlink', 'x.out')))).rejects.toThrow(/replaced/);
  });
});
