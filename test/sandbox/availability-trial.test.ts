/**
 * The availability check runs the same trial sandbox as the probe (`trialMounts()`: the read-only
 * root real commands get), so the check cannot pass where real commands would fail. A recording
 * stand-in for bubblewrap captures the argv the check passes.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { checkBwrap, trialMounts } from '../../src/sandbox/bwrap-availability.js';

const dir = mkdtempSync(join(tmpdir(), 'berth-bwrap-trial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('checkBwrap passes the probe trial mounts to bubblewrap', () => {
  const record = join(dir, 'argv');
  const fake = join(dir, 'bwrap');
  writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\nexit 0\n`);
  chmodSync(fake, 0o755);
  const result = checkBwrap({
    explicitPath: fake,
    pathValue: process.env.PATH,
    isRoot: false,
    network: 'deny',
  });
  expect(result).toEqual({ ok: true, path: fake });
  const argv = readFileSync(record, 'utf8').trimEnd().split('\n');
  const mounts = trialMounts();
  const at = argv.indexOf(mounts[0] as string);
  expect(at).toBeGreaterThan(-1);
  expect(argv.slice(at, at + mounts.length)).toEqual(mounts);
  expect(argv.slice(at + mounts.length, at + mounts.length + 1)).toEqual(['--']);
});
