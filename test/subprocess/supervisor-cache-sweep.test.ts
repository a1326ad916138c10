import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  markBuildUsed,
  removeStaleBuilds,
  STALE_AFTER_MS,
} from '../../src/subprocess/supervisor-cache-sweep.js';
import { waitFor } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'berth-sweep-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BINARY = 'berth-supervise';
const CURRENT = 'linux-x64-00000000000000aa';

/** A build directory for `key` whose directory and binary were last used `ageMs` ago. */
function build(key: string, ageMs: number, program = '/bin/true', under = root): string {
  const dir = join(under, key);
  mkdirSync(dir, { recursive: true });
  const binary = join(dir, BINARY);
  copyFileSync(program, binary);
  const then = new Date(Date.now() - ageMs);
  utimesSync(binary, then, then);
  utimesSync(dir, then, then);
  return binary;
}

describe('removeStaleBuilds', () => {
  it('removes only long-unused builds of other keys of this platform that nothing runs', async () => {
    const old = STALE_AFTER_MS + 60_000;
    build(CURRENT, old);
    build('linux-x64-00000000000000bb', old); // stale: removed
    build('linux-x64-00000000000000cc', 60_000); // used a minute ago: kept
    build('linux-arm64-00000000000000dd', old); // another architecture (a shared home): kept
    const running = build('linux-x64-00000000000000ee', old, '/bin/sleep'); // running: kept
    mkdirSync(join(root, 'not-a-key'));
    writeFileSync(join(root, 'linux-x64-00000000000000ff'), 'a file, not a build');
    const sleeper = spawn(running, ['30'], { stdio: 'ignore' });
    try {
      await waitFor(() => {
        try {
          return readdirSync(`/proc/${sleeper.pid}`) && existsSync(`/proc/${sleeper.pid}/exe`);
        } catch {
          return false;
        }
      }, 'the old build to run');
      // Its exec refreshed its access time: age it again, so only the running check keeps it.
      const then = new Date(Date.now() - old);
      utimesSync(running, then, then);
      utimesSync(join(root, 'linux-x64-00000000000000ee'), then, then);
      expect(removeStaleBuilds(root, CURRENT, BINARY)).toEqual(['linux-x64-00000000000000bb']);
    } finally {
      sleeper.kill('SIGKILL');
    }
    expect(readdirSync(root).sort()).toEqual([
      'linux-arm64-00000000000000dd',
      CURRENT,
      'linux-x64-00000000000000cc',
      'linux-x64-00000000000000ee',
      'linux-x64-00000000000000ff',
      'not-a-key',
    ]);
  });

  it('a build marked used is kept; a root that does not exist is no error', () => {
    const other = join(root, 'second');
    const key = 'linux-x64-0000000000000011';
    build(key, STALE_AFTER_MS * 2, '/bin/true', other);
    markBuildUsed(join(other, key));
    expect(removeStaleBuilds(other, CURRENT, BINARY)).toEqual([]);
    expect(existsSync(join(other, key, BINARY))).toBe(true);
    expect(removeStaleBuilds(join(root, 'missing'), CURRENT, BINARY)).toEqual([]);
    expect(removeStaleBuilds(other, 'not a key', BINARY)).toEqual([]);
  });
});
