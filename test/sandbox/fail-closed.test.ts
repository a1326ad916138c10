import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confineCommand, createSandboxPolicy, probeSandbox } from '../../src/sandbox/index.js';

let base: string;
const savedPath = process.env.PATH;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-sbx-closed-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
afterEach(() => {
  process.env.PATH = savedPath;
});

describe('fail closed', () => {
  it('a bwrapPath pointing at a missing binary: no argv, a reason naming it, and a fix', () => {
    const policy = createSandboxPolicy({ writableRoots: [base], bwrapPath: join(base, 'no-such-bwrap') });
    const confined = confineCommand(policy, ['/bin/sh', '-c', 'echo ran'], { cwd: base });
    expect(confined).toEqual({
      ok: false,
      reason: `bubblewrap is not available: the configured bwrapPath ${JSON.stringify(join(base, 'no-such-bwrap'))} is not an executable file`,
      fix: expect.stringContaining('apt-get install bubblewrap'),
    });
    expect('argv' in confined).toBe(false);
  });

  it('no bwrap on PATH: refused, and the PATH searched is in the reason', () => {
    process.env.PATH = join(base, 'empty-bin');
    const policy = createSandboxPolicy({ writableRoots: [base] });
    const confined = confineCommand(policy, ['/bin/true'], { cwd: base });
    expect(confined.ok).toBe(false);
    if (!confined.ok) {
      expect(confined.reason).toBe(
        `bubblewrap is not available: no executable "bwrap" on PATH (${join(base, 'empty-bin')})`,
      );
      expect(confined.fix).toContain('install bubblewrap');
    }
  });

  it('a bwrap that cannot build a sandbox: refused with its own error, never run bare', () => {
    const fake = join(base, 'broken-bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const policy = createSandboxPolicy({ writableRoots: [base], bwrapPath: fake });
    const confined = confineCommand(policy, ['/bin/true'], { cwd: base });
    expect(confined.ok).toBe(false);
    if (!confined.ok) {
      expect(confined.reason).toBe(
        `bubblewrap (${fake}) cannot build a sandbox on this host: bwrap: No permissions to create new namespace`,
      );
      expect(confined.fix.length).toBeGreaterThan(20);
    }
  });

  it('a failure is not cached: the same policy works again once bubblewrap is back', () => {
    process.env.PATH = join(base, 'empty-bin');
    const policy = createSandboxPolicy({ writableRoots: [base] });
    expect(confineCommand(policy, ['/bin/true'], { cwd: base }).ok).toBe(false);
    process.env.PATH = savedPath;
    const confined = confineCommand(policy, ['/bin/true'], { cwd: base });
    expect(confined.ok).toBe(true);
    if (confined.ok) expect(confined.argv).toContain('--unshare-net');
  });

  it('the preflight reports the same failure with its fix', async () => {
    const report = await probeSandbox({ bwrapPath: join(base, 'no-such-bwrap') });
    expect(report.available).toBe(false);
    expect(report.reason).toContain('no-such-bwrap');
    expect(report.fix).toContain('install bubblewrap');
    expect(report.checks.find((check) => check.id === 'bwrap-binary')?.status).toBe('fail');
  });
});

describe('the macOS backend on a host without sandbox-exec', () => {
  it('fails closed with a reason and a fix', async () => {
    const { confineWithSandboxExec } = await import('../../src/sandbox/index.js');
    const policy = createSandboxPolicy({ writableRoots: [base] });
    expect(confineWithSandboxExec(policy, ['/bin/true'])).toEqual({
      ok: false,
      reason: 'sandbox-exec is not available: /usr/bin/sandbox-exec is missing or not executable',
      fix: expect.stringContaining('docker context'),
    });
  });
});
