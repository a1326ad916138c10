import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespaceFlags } from '../../src/sandbox/bwrap-availability.js';
import {
  CHURN_WINDOW_MS,
  CONTAINER_STATE_DIRS,
  PLAN_TTL_MS,
  planReadOnlyRoot,
  RootPlanner,
} from '../../src/sandbox/read-only-root.js';
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

  it('assembles only while mounts beneath a state directory keep changing, and reads them at most once a second', () => {
    // The mount table is fed in as text: remounting the host from a test would itself trigger the
    // start-up failure this guards against in sandboxes other tests are starting meanwhile.
    const state = join(base, 'engine-state');
    mkdirSync(state);
    const line = (id: number, point: string) => `${id} 1 0:${id} / ${point} rw,relatime - overlay overlay rw`;
    let table = [line(1, '/'), line(2, `${state}/a/merged`)].join('\n');
    let clock = 1_000_000;
    let reads = 0;
    const planner = new RootPlanner({
      stateDirs: [state, join(base, 'not-installed')],
      readMountInfo: () => {
        reads++;
        return table;
      },
      now: () => clock,
    });
    // First look: long-running containers, no change seen yet.
    expect(planner.plan()).toEqual({ args: ['--ro-bind', '/', '/'], excluded: [], assembled: false });
    // A container starts: assembled (once the previous plan is older than PLAN_TTL_MS).
    table = `${table}\n${line(3, `${state}/b/merged`)}`;
    clock += PLAN_TTL_MS - 1;
    expect(planner.plan().assembled).toBe(false);
    expect(reads).toBe(1);
    clock += 1;
    const assembled = planner.plan();
    expect(assembled.assembled).toBe(true);
    expect(assembled.excluded).toEqual([state]);
    expect(reads).toBe(2);
    // Quiet again: assembled until CHURN_WINDOW_MS after the last change, then the whole root.
    clock += CHURN_WINDOW_MS - 1;
    expect(planner.plan().assembled).toBe(true);
    clock += PLAN_TTL_MS;
    expect(planner.plan().assembled).toBe(false);
    // Every container gone (a change): nothing left to leave out, so the whole root.
    table = line(1, '/');
    clock += PLAN_TTL_MS;
    expect(planner.plan()).toEqual({ args: ['--ro-bind', '/', '/'], excluded: [], assembled: false });
  });
});
