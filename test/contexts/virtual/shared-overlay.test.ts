// The virtual shell's external gate inside a process handle's kernel overlay
// (`external.shareOverlay`): real commands (sh, ls, cat, mv, rm in real bubblewrap over a real
// kernel overlay) and the virtual shell see one set of changes, and the real workspace stays
// untouched until commit. Root only: the kernel overlay is mounted in a private mount namespace.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import { createVirtualContext, type VirtualContext } from '../../../src/contexts/virtual/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';

const isRoot = process.getuid?.() === 0;
const bases: string[] = [];

afterAll(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

function freshWorkspace(): { base: string; ws: string } {
  const base = realpathSync(mkdtempSync('/var/tmp/berth-shared-overlay-'));
  bases.push(base);
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'dir'), { recursive: true });
  writeFileSync(join(ws, 'file.txt'), 'host\n');
  writeFileSync(join(ws, 'gone.txt'), 'gone\n');
  writeFileSync(join(ws, 'dir', 'inner.txt'), 'inner\n');
  return { base, ws };
}

/** The workspace's tree as `path:content` lines (directories end in `/`). */
function tree(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) out.push(`${path}/`, ...tree(join(dir, entry.name), `${path}/`));
    else out.push(`${path}:${readFileSync(join(dir, entry.name), 'utf8').trimEnd()}`);
  }
  return out;
}

describe.skipIf(!isRoot)('external commands sharing a process handle’s overlay', () => {
  let ws: string;
  let host: ProcessContext;
  let hostHandle: ContextHandle;
  let shell: VirtualContext;
  let handle: ContextHandle;

  beforeEach(async () => {
    const made = freshWorkspace();
    ws = made.ws;
    host = createProcessContext({
      workspaceRoot: ws,
      sandbox: createSandboxPolicy({ writableRoots: [ws], home: join(made.base, 'home'), env: {} }),
      overlay: { stateDir: join(made.base, 'state') },
      killGraceMs: 500,
    });
    hostHandle = await host.spawn({ cwd: ws });
    shell = createVirtualContext({
      root: ws,
      external: { context: host, handle: hostHandle, allow: ['dash', 'python3'], shareOverlay: true },
    });
    handle = await shell.spawn();
  });
  afterEach(async () => {
    await shell.close();
    await host.close();
  });

  const run = async (script: string) => {
    const result = await shell.exec(handle, script, { timeoutMs: 60_000 });
    expect(result.stderr).toBe('');
    return result.stdout;
  };

  it('real commands see what the virtual shell made, removed and replaced, and it sees theirs', async () => {
    // Virtual changes of every structural kind: a new file, an appended lower file, a deleted
    // lower file (a whiteout), a directory replaced by a new one (an opaque directory).
    await run(
      'cd /workspace; echo virtual > v.txt; echo edited >> file.txt; rm gone.txt; rm -r dir; mkdir dir; echo fresh > dir/new.txt',
    );
    expect(await run("dash -c 'cat v.txt file.txt; ls; ls dir'")).toBe(
      'virtual\nhost\nedited\ndir\nfile.txt\nv.txt\nnew.txt\n',
    );
    // The real commands' changes, in the kernel's own form, are seen by the virtual shell.
    await run("dash -c 'echo real > r.txt; rm dir/new.txt; mv v.txt v2.txt; mkdir -p made/sub'");
    expect(await run('cd /workspace; ls; ls -A dir; cat r.txt v2.txt; test -e v.txt || echo no-v')).toBe(
      'dir\nfile.txt\nmade\nr.txt\nv2.txt\nreal\nvirtual\nno-v\n',
    );
    // The workspace itself is untouched.
    expect(tree(ws)).toEqual(['dir/', 'dir/inner.txt:inner', 'file.txt:host', 'gone.txt:gone']);
  });

  it('a change made between two real commands of one script is seen by the second', async () => {
    expect(
      await run(
        "cd /workspace; echo a > x; dash -c 'cat x'; rm x; dash -c 'test -e x || echo x-gone'; echo b > x; dash -c 'cat x'",
      ),
    ).toBe('a\nx-gone\nb\n');
  });

  it('a working directory in the workspace is the same directory on the host', async () => {
    expect(await run("mkdir -p /workspace/deep/er; cd /workspace/deep/er; dash -c 'pwd; ls ../..'")).toBe(
      `${ws}/deep/er\ndeep\ndir\nfile.txt\ngone.txt\n`,
    );
    // PWD as the command gets it names the host directory too (a shell checks it; others trust it).
    expect(
      await run(`cd /workspace/deep; python3 -c 'import os; print(os.environ["PWD"], os.getcwd())'`),
    ).toBe(`${ws}/deep ${ws}/deep\n`);
  });

  it('both contexts report one set of changes; a commit through the virtual one applies both sides', async () => {
    await run("cd /workspace; echo v > v.txt; rm gone.txt; dash -c 'echo r > r.txt; echo more >> file.txt'");
    const virtualChanges = (await shell.changes(handle)).map((c) => `${c.kind} ${c.path}`);
    expect(virtualChanges).toEqual([
      'modified /workspace/file.txt',
      'deleted /workspace/gone.txt',
      'added /workspace/r.txt',
      'added /workspace/v.txt',
    ]);
    const hostChanges = (await host.changes!(hostHandle)).map((c) => `${c.kind} ${c.path}`);
    expect(hostChanges).toEqual(virtualChanges.map((line) => line.replace('/workspace', ws)));
    expect(await shell.diff(handle, { paths: ['/workspace/file.txt'] })).toContain('+more');

    await shell.commit(handle);
    expect(tree(ws)).toEqual(['dir/', 'dir/inner.txt:inner', 'file.txt:host\nmore', 'r.txt:r', 'v.txt:v']);
    expect(await shell.changes(handle)).toEqual([]);
    expect(await host.changes!(hostHandle)).toEqual([]);
    // The mount made after the commit shows the committed workspace, and new changes start anew.
    expect(await run("dash -c 'ls; echo after > after.txt'; cat /workspace/after.txt")).toBe(
      'dir\nfile.txt\nr.txt\nv.txt\nafter\n',
    );
    expect((await shell.changes(handle)).map((c) => c.path)).toEqual(['/workspace/after.txt']);
  });

  it('commit and discard wait for the real commands: a running one makes them refuse; discard then restores both views', async () => {
    await run("echo v > /workspace/v.txt; dash -c 'echo r > r.txt'");
    const task = await shell.execBackground(handle, "dash -c 'echo started > started; sleep 30'");
    // The process handle sees the mount as it is: the real command has started once its file shows.
    await expect
      .poll(async () => (await host.exec(hostHandle, 'cat started 2>/dev/null')).stdout, { timeout: 30_000 })
      .toBe('started\n');
    await expect(shell.commit(handle)).rejects.toThrow(/still run/);
    await expect(shell.discard(handle)).rejects.toThrow(/still run/);
    await shell.killBackground(handle, task.id);
    await shell.discard(handle);
    expect(await shell.changes(handle)).toEqual([]);
    expect(await run("dash -c 'ls'; ls /workspace")).toBe(
      'dir\nfile.txt\ngone.txt\ndir\nfile.txt\ngone.txt\n',
    );
    expect((await host.exec(hostHandle, 'ls')).stdout).toBe('dir\nfile.txt\ngone.txt\n');
    expect(tree(ws)).toEqual(['dir/', 'dir/inner.txt:inner', 'file.txt:host', 'gone.txt:gone']);
  });

  it('a handle sharing the overlay cannot be forked, and says why', async () => {
    await expect(shell.fork(handle)).rejects.toThrow(/cannot be forked while its workspace shares/);
  });
});

describe('the shareOverlay option', () => {
  it('refuses what it cannot honour, naming the option', async () => {
    const { base, ws } = freshWorkspace();
    const plain = createProcessContext({ workspaceRoot: ws });
    const plainHandle = await plain.spawn();
    try {
      const external = { context: plain, handle: plainHandle, allow: ['sh'] };
      expect(() => createVirtualContext({ root: ws, external: { ...external, shareOverlay: true } })).toThrow(
        /options\.external\.shareOverlay: needs external\.handle to be a live handle of a process context created with the overlay option/,
      );
      expect(() =>
        createVirtualContext({
          root: ws,
          external: { ...external, shareOverlay: 'yes' as unknown as boolean },
        }),
      ).toThrow(/options\.external\.shareOverlay: must be a boolean/);
      expect(() =>
        createVirtualContext({ root: ws, external: { ...external, shareOverlays: true } as never }),
      ).toThrow(/shareOverlays.*shareOverlay/);
      if (!isRoot) return;
      const host = createProcessContext({
        workspaceRoot: ws,
        sandbox: createSandboxPolicy({ writableRoots: [ws], home: join(base, 'home'), env: {} }),
        overlay: { stateDir: join(base, 'state') },
      });
      const hostHandle = await host.spawn();
      try {
        const shared = { context: host, handle: hostHandle, allow: ['sh'], shareOverlay: true };
        expect(() => createVirtualContext({ external: shared })).toThrow(
          /options\.root: must be the workspace the shared overlay covers/,
        );
        expect(() => createVirtualContext({ root: join(ws, 'dir'), external: shared })).toThrow(
          /options\.root: must be the workspace the shared overlay covers, ".*\/ws", not ".*\/ws\/dir"/,
        );
        expect(() =>
          createVirtualContext({ root: ws, stateDirectory: join(base, 'other'), external: shared }),
        ).toThrow(/options\.stateDirectory: must be left out with external\.shareOverlay/);
        await host.destroy(hostHandle);
        // A destroyed handle lends nothing.
        expect(() => createVirtualContext({ root: ws, external: shared })).toThrow(
          /needs external\.handle to be a live handle/,
        );
      } finally {
        await host.close();
      }
    } finally {
      await plain.close();
    }
  });
});
