/**
 * Who owns what in the virtual namespace: what the identity makes (in `/tmp`, the home directory,
 * the workspace, over seeded memory or a host directory) is the identity's, and every command
 * agrees (`test`, `ls -l`, `stat`, `find`); `/tmp` and `/dev` stay root's, and a new name in `/dev`
 * is refused as a permission error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualContext, type VirtualContext } from '../../../src/contexts/virtual/index.js';

const contexts: VirtualContext[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function run(script: string, options?: Parameters<typeof createVirtualContext>[0]) {
  const context = createVirtualContext(options);
  contexts.push(context);
  const handle = await context.spawn();
  return { context, handle, result: await context.exec(handle, script) };
}

const MINE =
  'for p in "$@"; do [ -O "$p" ] && [ -G "$p" ] && [ -r "$p" ] && [ -w "$p" ] && echo "$p mine" || echo "$p NOT"; done';

describe('ownership in the virtual namespace', () => {
  it('gives what the user makes the user, wherever the user may write', async () => {
    const { result } = await run(
      `mine() { ${MINE}; }
       cd /tmp && touch f && mkdir d && echo x > r && ln -s f l
       mine /tmp/f /tmp/d /tmp/r ~ /workspace
       cd ~ && mkdir -p a/b && touch a/b/c && mine a a/b a/b/c
       cd /workspace && touch w && mkdir -p v/u && mine w v v/u seeded.txt`,
      { files: { '/workspace/seeded.txt': 'seed\n' } },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(
      [
        '/tmp/f',
        '/tmp/d',
        '/tmp/r',
        '/home/user',
        '/workspace',
        'a',
        'a/b',
        'a/b/c',
        'w',
        'v',
        'v/u',
        'seeded.txt',
      ].map((p) => `${p} mine`),
    );
  });

  it('reports the owner the same way in ls -l, stat and find', async () => {
    const { result } = await run(
      `cd /tmp && mkdir d && touch d/f f
       ls -l f | cut -d' ' -f3,4; ls -ld d | cut -d' ' -f3,4; ls -n f | cut -d' ' -f3,4
       stat -c '%u %g %U %G' f d
       find /tmp/d /tmp/f -user user -group user | sort
       find /tmp/d /tmp/f -uid 1000 -gid 1000 | wc -l
       find /tmp -maxdepth 0 -user root`,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'user user',
        'user user',
        '1000 1000',
        '1000 1000 user user',
        '1000 1000 user user',
        '/tmp/d',
        '/tmp/d/f',
        '/tmp/f',
        '3',
        '/tmp',
        '',
      ].join('\n'),
    );
  });

  it('keeps /tmp and /dev root, and refuses a new name in /dev as a permission error', async () => {
    const { result } = await run(
      `stat -c '%U %G %a %n' /tmp /dev /dev/null
       [ -O /tmp ] || echo "tmp not mine"; [ -w /tmp ] && [ -k /tmp ] && echo "tmp writable, sticky"
       [ -O /dev ] || echo "dev not mine"; [ -w /dev ] || echo "dev not writable"; [ -w /dev/null ] && echo "null writable"
       touch /dev/foo; echo "touch $?"; echo x > /dev/bar; echo "redirect $?"; echo x > /dev/null; echo "null $?"`,
    );
    expect(result.stdout).toBe(
      [
        'root root 1777 /tmp',
        'root root 755 /dev',
        'root root 666 /dev/null',
        'tmp not mine',
        'tmp writable, sticky',
        'dev not mine',
        'dev not writable',
        'null writable',
        'touch 1',
        'redirect 1',
        'null 0',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toMatch(/touch: cannot touch '\/dev\/foo': Permission denied/);
    expect(result.stderr).toMatch(/\/dev\/bar: Permission denied/);
  });

  it('follows the identity: another uid, or root', async () => {
    const other = await run(
      `touch /tmp/f; mkdir ~/d; stat -c '%u %g' /tmp/f ~/d; [ -O /tmp/f ] && echo mine`,
      {
        identity: { user: 'ada', uid: 501, gid: 20, home: '/home/ada' },
      },
    );
    expect(other.result.stdout).toBe('501 20\n501 20\nmine\n');
    const root = await run(`touch /tmp/f; stat -c '%u %g %U' /tmp/f ~; [ -O /tmp ] && echo "tmp mine"`, {
      identity: { user: 'root', uid: 0, gid: 0, home: '/root' },
    });
    expect(root.result.stdout).toBe('0 0 root\n0 0 root\ntmp mine\n');
  });

  it('shows the host files of options.root as the identity, the host process being their owner', async () => {
    const root = mkdtempSync(join(tmpdir(), 'virtual-owner-'));
    dirs.push(root);
    writeFileSync(join(root, 'host.txt'), 'from the host\n');
    const { result } = await run(
      `mine() { ${MINE}; }
       mine host.txt . ; echo more >> host.txt; mkdir made; mine host.txt made`,
      { root },
    );
    expect(result.stdout).toBe('host.txt mine\n. mine\nhost.txt mine\nmade mine\n');
  });

  it('keeps owners in a forked handle', async () => {
    const { context, handle } = await run('touch /tmp/f ~/g /workspace/h');
    const forked = await context.fork(handle);
    const result = await context.exec(
      forked,
      `stat -c '%U %n' /tmp /tmp/f ~/g /workspace/h; touch /tmp/n; stat -c %U /tmp/n`,
    );
    expect(result.stdout).toBe('root /tmp\nuser /tmp/f\nuser /home/user/g\nuser /workspace/h\nuser\n');
  });
});
