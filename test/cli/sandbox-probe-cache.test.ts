import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROBE_CACHE_ENV, probeSandboxCached } from '../../src/cli/sandbox-probe-cache.js';
import { probeSandbox } from '../../src/sandbox/index.js';

const sandboxWorks = (await probeSandbox()).available;

describe.skipIf(!sandboxWorks)('the sandbox preflight cache', () => {
  let cache: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'berth-probe-cache-'));
    env = { ...process.env, XDG_CACHE_HOME: cache };
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  const entries = () => readdirSync(join(cache, 'berth')).filter((name) => name.endsWith('.json'));

  it('keeps a pass in a private file and answers from it next time', async () => {
    const first = await probeSandboxCached(env);
    expect(first.available).toBe(true);
    const [name] = entries();
    expect(name).toMatch(/^sandbox-probe-[0-9a-f]{32}\.json$/);
    const file = join(cache, 'berth', name!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'berth')).mode & 0o777).toBe(0o700);
    // Mark the kept report: the next answer must come from the file, not from a new probe.
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    entry.report.checks = [{ id: 'marked', title: 'from the cache', status: 'ok', detail: '' }];
    writeFileSync(file, JSON.stringify(entry));
    expect((await probeSandboxCached(env)).checks[0]?.id).toBe('marked');
  });

  it('probes again when the key, the age or the content does not fit', async () => {
    await probeSandboxCached(env);
    const file = join(cache, 'berth', entries()[0]!);
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    for (const bad of [
      { ...entry, key: 'other', report: { ...entry.report, checks: [{ id: 'marked' }] } },
      {
        ...entry,
        at: Date.now() - 8 * 24 * 3600 * 1000,
        report: { ...entry.report, checks: [{ id: 'marked' }] },
      },
      { ...entry, report: { ...entry.report, available: false, checks: [{ id: 'marked' }] } },
    ]) {
      writeFileSync(file, JSON.stringify(bad));
      expect((await probeSandboxCached(env)).checks[0]?.id).not.toBe('marked');
    }
    writeFileSync(file, '{not json');
    expect((await probeSandboxCached(env)).available).toBe(true);
  });

  it(`${PROBE_CACHE_ENV}=0 probes every time and keeps nothing; no bubblewrap on PATH keeps nothing`, async () => {
    await probeSandboxCached({ ...env, [PROBE_CACHE_ENV]: '0' });
    expect(() => entries()).toThrow(); // the directory was never made
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect((await probeSandboxCached(env)).available).toBe(false);
    } finally {
      process.env.PATH = path;
    }
    expect(() => entries()).toThrow();
  });
});
