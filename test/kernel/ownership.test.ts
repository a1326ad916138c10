/**
 * Ownership and access tests against real bash run as an unprivileged user: files and directories
 * the shell makes are its user's, and `test -r/-w/-x/-O/-G`, `stat`, `ls -n` and `find -uid` say
 * so. Real bash runs as uid/gid 1000 (through `setpriv` when the tests run as root, otherwise as
 * the current user); the kernel runs as the same identity over a memory filesystem that gives new
 * entries that identity's owner, as the virtual context's does.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../src/kernel/index.js';
import { createMemoryFilesystem } from '../../src/vfs/index.js';
import { haveBash, oracleEnv } from './support/bash-oracle.js';

const asRoot = process.getuid?.() === 0;
const uid = asRoot ? 1000 : (process.getuid?.() ?? 1000);
const gid = asRoot ? 1000 : (process.getgid?.() ?? 1000);
const canDrop =
  !asRoot || spawnSync('setpriv', ['--reuid=1000', '--regid=1000', '--clear-groups', 'true']).status === 0;

const CASES: Record<string, string> = {
  "a new file is the user's, readable and writable, not executable":
    'touch f; for t in -r -w -x -O -G -f; do test $t f && echo "$t yes" || echo "$t no"; done',
  'a redirection creates a file owned by the user':
    'echo hi > f; [ -O f ] && [ -G f ] && [ -w f ] && echo mine',
  "a new directory is the user's and searchable":
    'mkdir d; for t in -r -w -x -O -G -d; do [ $t d ] && echo "$t yes" || echo "$t no"; done',
  'mkdir -p gives every new level the user':
    'mkdir -p a/b/c; for d in a a/b a/b/c; do [[ -O $d && -G $d ]] && echo "$d mine"; done',
  'mode bits decide access for the owner':
    'touch f; chmod 0444 f; [ -w f ] || echo "no w"; chmod 0200 f; [ -r f ] || echo "no r"; [ -w f ] && echo w; chmod 0700 f; [ -x f ] && echo x',
  'a directory without write permission is not writable':
    'mkdir d; chmod 0500 d; [ -w d ] || echo "no w"; [ -x d ] && echo x; chmod 0700 d',
  'stat reports the user as owner':
    'touch f; mkdir d; for p in f d; do [ "$(stat -c "%u %g" $p)" = "$(id -u) $(id -g)" ] && echo "$p ok"; done',
  'ls -n lists the user as owner': 'touch f; set -- $(ls -n f); [ "$3 $4" = "$(id -u) $(id -g)" ] && echo ok',
  'find -uid and -gid find what the user made':
    'mkdir d; touch d/f f; find . -uid "$(id -u)" -gid "$(id -g)" | sort; find . ! -uid "$(id -u)" | wc -l',
  "a symlink the user makes is the user's":
    'ln -s nowhere l; [ -h l ] && [ "$(stat -c %u l)" = "$(id -u)" ] && echo ok',
};

function runBashAs(script: string): { status: number; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kown-'));
  try {
    if (asRoot) chownSync(dir, uid, gid);
    const argv = asRoot
      ? ['setpriv', '--reuid=1000', '--regid=1000', '--clear-groups', '/bin/bash', '-c', script]
      : ['/bin/bash', '-c', script];
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: dir, env: oracleEnv(dir), encoding: 'utf8' });
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.replaceAll(dir, '.') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runKernelAs(script: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const dir = '/home/oracle';
  const fs = createMemoryFilesystem({ files: { [dir]: { type: 'directory' } }, uid, gid });
  const kernel = createKernel({ fs, cwd: dir, env: oracleEnv(dir), identity: { uid, gid } });
  try {
    const r = await kernel.exec(script, { timeoutMs: 20_000 });
    return { status: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr.replaceAll(dir, '.') };
  } finally {
    kernel.close();
  }
}

describe.skipIf(!haveBash() || !canDrop)(`ownership vs bash as uid ${uid}`, () => {
  for (const [name, script] of Object.entries(CASES)) {
    it(name, async () => {
      const expected = runBashAs(script);
      expect(expected.status).toBe(0);
      expect(await runKernelAs(script)).toEqual(expected);
    });
  }
});
