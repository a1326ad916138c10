import { describe, expect, it } from 'vitest';
import { formatSandboxReport, probeSandbox, type SandboxReport } from '../../src/sandbox/index.js';

describe('probeSandbox on this host (bubblewrap installed)', () => {
  it('reports a working sandbox with network isolation and names each check', async () => {
    const report = await probeSandbox();
    expect(report).toMatchObject({
      platform: 'linux',
      backend: 'bubblewrap',
      available: true,
      networkIsolation: true,
    });
    const ids = report.checks.map((check) => check.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'user',
        'max-user-namespaces',
        'bwrap-binary',
        'bwrap-run',
        'network-namespace',
      ]),
    );
    for (const id of [
      'bwrap-binary',
      'bwrap-run',
      'term-grace',
      'terminal-foreground',
      'network-namespace',
      'unix-socket-filter',
    ]) {
      expect(report.checks.find((check) => check.id === id)?.status, id).toBe('ok');
    }
    expect(report.checks.find((check) => check.id === 'bwrap-binary')?.detail).toMatch(
      /bwrap \(bubblewrap \d+\.\d+/,
    );
  });
});

describe('probeSandbox input', () => {
  it('refuses a timeout that is not a positive integer', async () => {
    await expect(probeSandbox({ timeoutMs: 0 })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      field: 'timeoutMs',
    });
    await expect(probeSandbox({ timeoutMs: Number.NaN })).rejects.toMatchObject({ field: 'timeoutMs' });
  });
});

describe('formatSandboxReport', () => {
  it('puts the verdict, the reason and the fix first, then one line per check with its fix', () => {
    const report: SandboxReport = {
      platform: 'linux',
      backend: 'bubblewrap',
      available: false,
      networkIsolation: false,
      reason: 'bubblewrap cannot build a sandbox: setting up uid map: Permission denied',
      fix: 'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
      checks: [
        { id: 'user', title: 'Running user', status: 'ok', detail: 'uid 1000' },
        {
          id: 'apparmor-userns',
          title: 'kernel.apparmor_restrict_unprivileged_userns',
          status: 'warn',
          detail: '1',
          fix: 'give bwrap a profile',
        },
        { id: 'bwrap-run', title: 'Trial sandbox', status: 'fail', detail: 'uid map', fix: 'see above' },
        {
          id: 'userns-clone',
          title: 'kernel.unprivileged_userns_clone',
          status: 'skip',
          detail: 'not present',
        },
      ],
    };
    expect(formatSandboxReport(report)).toBe(
      [
        'OS sandbox: UNAVAILABLE (bubblewrap on linux); sandboxed commands fail closed with exit 127',
        '  why: bubblewrap cannot build a sandbox: setting up uid map: Permission denied',
        '  fix: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
        '',
        '[ok  ] Running user: uid 1000',
        '[warn] kernel.apparmor_restrict_unprivileged_userns: 1',
        '       fix: give bwrap a profile',
        '[FAIL] Trial sandbox: uid map',
        '       fix: see above',
        '[skip] kernel.unprivileged_userns_clone: not present',
        '',
      ].join('\n'),
    );
  });

  it('says when network isolation alone is missing', () => {
    const text = formatSandboxReport({
      platform: 'linux',
      backend: 'bubblewrap',
      available: true,
      networkIsolation: false,
      checks: [],
    });
    expect(text).toBe('OS sandbox: available (bubblewrap on linux); network isolation UNAVAILABLE\n\n');
  });
});
