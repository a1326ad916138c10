import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { CONTAINER_STATE_DIRS, planReadOnlyRoot } from '../../src/sandbox/read-only-root.js';
import { runConfined } from './run-confined.js';

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
      '--ro-bind',
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

  it('on this host (container engine installed) its state is absent inside and the root stays read-only', async () => {
    const stateDir = CONTAINER_STATE_DIRS.find((dir) => existsSync(dir));
    if (stateDir === undefined)
      throw new Error(
        'no container engine state directory on this host: the docker engine should be installed',
      );
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const policy = createSandboxPolicy({ writableRoots: [ws], home: join(base, 'home'), env: {} });
    const script = [
      `test -e ${stateDir} && echo STATE-VISIBLE`,
      'echo x > /berth-root-write && echo ROOT-WRITTEN',
      'mkdir /var/berth-x 2>/dev/null && echo VAR-WRITTEN',
      'ls /usr/bin/env /bin/sh >/dev/null && echo USR-OK',
      'echo ok > here.txt && echo WS-OK',
      'true',
    ].join('; ');
    const result = await runConfined(policy, ['/bin/sh', '-c', script], { cwd: ws });
    expect(result.stdout).toBe('USR-OK\nWS-OK\n');
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(existsSync('/berth-root-write')).toBe(false);
  });
});
