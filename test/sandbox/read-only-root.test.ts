import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespaceFlags } from '../../src/sandbox/bwrap-availability.js';
import { CONTAINER_STATE_DIRS, planReadOnlyRoot } from '../../src/sandbox/read-only-root.js';
import { runArgv } from './run-confined.js';

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-root-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the read-only root', () => {
  it('pins the container engine state directories left out of the sandbox', () => {
    expect(CONTAINER_STATE_DIRS).toEqual([
      '/var/lib/docker',
      '/var/lib/containerd',
      '/var/lib/containers',
      '/run/docker',
      '/run/containerd',
      '/run/containers',
      '/run/netns',
    ]);
  });

  it('binds / whole when no state directory exists', () => {
    expect(planReadOnlyRoot([join(base, 'absent')])).toEqual({
      args: ['--ro-bind', '/', '/'],
      excluded: [],
      assembled: false,
    });
  });

  it('assembles the path down to an excluded directory from its siblings, keeping symlinks', () => {
    mkdirSync(join(base, 'tree', 'state', 'inner'), { recursive: true });
    mkdirSync(join(base, 'tree', 'keep'));
    symlinkSync('keep', join(base, 'tree', 'link'));
    const plan = planReadOnlyRoot([join(base, 'tree', 'state')]);
    expect(plan.assembled).toBe(true);
    expect(plan.excluded).toEqual([join(base, 'tree', 'state')]);
    const treeIndex = plan.args.indexOf(join(base, 'tree'));
    expect(plan.args.slice(treeIndex - 1, treeIndex + 7)).toEqual([
      '--dir',
      join(base, 'tree'),
      '--ro-bind-try',
      join(base, 'tree', 'keep'),
      join(base, 'tree', 'keep'),
      '--symlink',
      'keep',
      join(base, 'tree', 'link'),
    ]);
    expect(plan.args).not.toContain(join(base, 'tree', 'state'));
    expect(plan.args).not.toContain('/proc');
    expect(plan.args).toContain('/usr');
  });

  it('an assembled root: the left-out directory is absent, the rest readable, nothing writable', async () => {
    mkdirSync(join(base, 'state2', 'engine'), { recursive: true });
    const plan = planReadOnlyRoot([join(base, 'state2', 'engine')]);
    const argv = [
      'bwrap',
      ...namespaceFlags({ isRoot: process.getuid?.() === 0, network: 'deny', newSession: true }),
      ...plan.args,
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--remount-ro',
      '/',
      '--',
      '/bin/sh',
      '-c',
      [
        `test -e ${join(base, 'state2', 'engine')} && echo STATE-VISIBLE`,
        `test -d ${join(base, 'state2')} && echo PARENT-VISIBLE`,
        'echo x > /berth-root-write 2>/dev/null && echo ROOT-WRITTEN',
        'mkdir /var/berth-x 2>/dev/null && echo VAR-WRITTEN',
        `mkdir ${join(base, 'state2', 'new')} 2>/dev/null && echo ASSEMBLED-DIR-WRITTEN`,
        'ls /usr/bin/env /bin/sh >/dev/null && echo USR-OK',
        'test -L /bin || test -d /bin && echo BIN-OK',
        'true',
      ].join('; '),
    ];
    const result = await runArgv(argv, { cwd: '/' });
    expect(result.stderr).not.toContain('bwrap:');
    expect(result.stdout).toBe('PARENT-VISIBLE\nUSR-OK\nBIN-OK\n');
    expect(existsSync('/berth-root-write')).toBe(false);
  });

  it('by default, assembles only while mounts exist beneath a container engine state directory', () => {
    const mountPoints = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[4] ?? '');
    const volatile = CONTAINER_STATE_DIRS.filter((dir) =>
      mountPoints.some((point) => point.startsWith(`${dir}/`)),
    );
    const plan = planReadOnlyRoot();
    if (volatile.length === 0) {
      expect(plan).toEqual({ args: ['--ro-bind', '/', '/'], excluded: [], assembled: false });
    } else {
      expect(plan.assembled).toBe(true);
      expect(plan.excluded).toEqual(expect.arrayContaining(volatile.map((dir) => realpathSync(dir))));
      // Reused while the mount table is unchanged.
      expect(planReadOnlyRoot()).toBe(plan);
    }
  });
});
