// Transactions for real tools: a handle's commands run over a kernel overlay of the workspace, with
// real bubblewrap, as root and as an unprivileged user. The oracle for commit is the same script
// run directly on a copy of the workspace (the trees are compared, git's tree by hash).
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';

const dist = join(import.meta.dirname, '../../../dist');
const scenarioScript = join(import.meta.dirname, 'overlay-scenario.mjs');
const NOBODY = 65534;
const bases: string[] = [];

function freshBase(owner?: number): string {
  const base = realpathSync(mkdtempSync('/var/tmp/berth-overlay-test-'));
  if (owner !== undefined) chownSync(base, owner, owner);
  bases.push(base);
  return base;
}

type Scenario = 'commit' | 'discard' | 'conflict' | 'fork';

/** Run one scenario in a process of its own, as root or as nobody; its JSON result. */
function runScenario(scenario: Scenario, as: 'root' | 'nobody'): Record<string, unknown> {
  const base = freshBase(as === 'nobody' ? NOBODY : undefined);
  const node = process.execPath;
  const argv =
    as === 'nobody'
      ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', node, scenarioScript]
      : [node, scenarioScript];
  const run = spawnSync(argv[0]!, [...argv.slice(1), dist, base, scenario], {
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, HOME: base },
  });
  if (run.status !== 0) throw new Error(`scenario ${scenario} as ${as} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const isRoot = process.getuid?.() === 0;

afterAll(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

for (const as of ['root', 'nobody'] as const) {
  describe.skipIf(!isRoot)(`a workspace overlay, as ${as}`, () => {
    it('real tools (npm install of a local package, git init and commit, mv, chmod, ln -s) change the merged view only; commit leaves the workspace as the same commands run directly would', () => {
      const result = runScenario('commit', as);
      expect(result.exec).toMatchObject({ exitCode: 0, stderr: '' });
      expect((result.exec as { stdout: string }).stdout).toMatch(/added 1 package[\s\S]*\nfirst\n$/);
      expect(result.untouchedWhileOpen).toBe(true);
      expect(result.sees).toBe('new\nmoving\nx\n');
      const changes = result.changes as string[];
      for (const expected of [
        'added /added.txt',
        'modified /edit.txt',
        'deleted /gone.txt',
        'added /link-to-keep',
        'added /made/sub/f',
        'deleted /move-me.txt',
        'added /moved.txt',
        'deleted /old-dir',
        'added /new-dir/inner/x',
        'modified /run.sh',
        'deleted /src/deep/a.c',
        'added /src/deep/b.c',
        'added /repo/.git/HEAD',
        'added /app/node_modules/lib',
        'added /app/package-lock.json',
      ]) {
        expect(changes).toContain(expected);
      }
      expect(changes).not.toContain('added /keep.txt');
      expect(result.diff).toBe(
        'diff --git a/edit.txt b/edit.txt\n--- a/edit.txt\n+++ b/edit.txt\n@@ -1,2 +1,3 @@\n one\n-two\n+2\n+three\n',
      );
      expect(result.differs).toBeUndefined();
      expect(result.same).toBe(true);
      expect(result.sameGitTree).toBe(true);
      expect(result.gitLog).toBe('first\n');
      expect(result.afterCommit).toBe(0);
      expect(result.stillRuns).toBe('new\n');
    });

    it('discard leaves the workspace untouched, and the commands see it again', () => {
      const result = runScenario('discard', as);
      expect(result.exec).toMatchObject({ exitCode: 0 });
      expect(result.untouchedWhileOpen).toBe(true);
      expect(result.same).toBe(true);
      expect(result.afterDiscard).toBe(0);
      expect(result.seesAfterDiscard).toMatch(/^bye\nls: cannot access 'added.txt'/);
    });

    it('a conflicting edit in the workspace meanwhile is refused, and the edit kept', () => {
      const result = runScenario('conflict', as);
      expect(result.refused).toBe(true);
      expect(result.code).toBe('E_CONFLICT');
      expect(result.message).toContain('/ws/edit.txt');
      expect(result.workspaceKept).toBe('theirs\n');
    });

    it('fork starts from the changes so far and evolves apart', () => {
      const result = runScenario('fork', as);
      expect(result.parentSeesFork).toMatch(/No such file/);
      expect(result.forkSeesBase).toBe('base\n');
      expect(result.forkChanges).toEqual(['/only-fork.txt', '/shared.txt']);
      expect(result.committedFork).toEqual([
        'edit.txt',
        'gone.txt',
        'keep.txt',
        'move-me.txt',
        'only-fork.txt',
        'shared.txt',
      ]);
    });
  });
}

describe('the overlay option', () => {
  let base: string;
  let ws: string;
  const sandbox = () => createSandboxPolicy({ writableRoots: [ws], home: join(base, 'home'), env: {} });

  let context: ProcessContext;

  beforeAll(() => {
    base = freshBase();
    ws = join(base, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'file.txt'), 'host\n');
    // Creating the context mounts nothing: each handle's overlay is mounted by spawn.
    context = createProcessContext({
      workspaceRoot: ws,
      sandbox: sandbox(),
      overlay: { stateDir: join(base, 'state-live') },
      killGraceMs: 500,
    });
  });
  afterAll(() => context.close());

  it('refuses what it cannot honour, naming the option', () => {
    const stateDir = join(base, 'state');
    expect(() => createProcessContext({ workspaceRoot: ws, overlay: { stateDir } })).toThrow(
      /options\.overlay: needs options\.sandbox/,
    );
    expect(() => createProcessContext({ sandbox: sandbox(), overlay: { stateDir } })).toThrow(
      /options\.overlay: needs options\.workspaceRoot/,
    );
    expect(() =>
      createProcessContext({ workspaceRoot: ws, sandbox: sandbox(), overlay: { stateDir: join(ws, 's') } }),
    ).toThrow(/must not contain each other/);
    expect(() =>
      createProcessContext({ workspaceRoot: ws, sandbox: sandbox(), overlay: { stateDir: 'relative' } }),
    ).toThrow(/options\.overlay\.stateDir/);
    expect(() =>
      createProcessContext({
        workspaceRoot: ws,
        sandbox: sandbox(),
        overlay: { stateDirectory: stateDir } as unknown as { stateDir: string },
      }),
    ).toThrow(/stateDir/);
    expect(() =>
      createProcessContext({ workspaceRoot: ws, sandbox: sandbox(), overlay: {} as never }),
    ).toThrow(/options\.overlay\.stateDir: is required/);
  });

  it('fails closed with the reason where the overlay cannot be mounted: spawn refuses, nothing runs', async () => {
    const saved = process.env.PATH;
    const bin = join(base, 'bin-without-unshare');
    mkdirSync(bin, { recursive: true });
    const context = createProcessContext({
      workspaceRoot: ws,
      sandbox: sandbox(),
      overlay: { stateDir: join(base, 'state-fail') },
    });
    try {
      process.env.PATH = bin;
      await expect(context.spawn({ cwd: ws })).rejects.toMatchObject({
        code: 'E_SANDBOX_UNAVAILABLE',
        message: expect.stringMatching(
          /unshare or nsenter \(util-linux\) is not on PATH.*install util-linux/,
        ),
      });
    } finally {
      process.env.PATH = saved;
      await context.close();
    }
    expect(readFileSync(join(ws, 'file.txt'), 'utf8')).toBe('host\n');
    expect(readdirSync(ws)).toEqual(['file.txt']);
  });

  it('a workspace path the mount options cannot carry is refused, not mangled', async () => {
    const odd = join(base, 'odd:dir');
    mkdirSync(odd);
    const context = createProcessContext({
      workspaceRoot: odd,
      sandbox: createSandboxPolicy({ writableRoots: [odd], home: join(base, 'home'), env: {} }),
      overlay: { stateDir: join(base, 'state-odd') },
    });
    try {
      await expect(context.spawn({ cwd: odd })).rejects.toMatchObject({
        code: 'E_SANDBOX_UNAVAILABLE',
        message: expect.stringContaining('comma, colon or newline'),
      });
    } finally {
      await context.close();
    }
  });

  describe.skipIf(!isRoot)('on a live handle', () => {
    it('commit and discard wait for the handle to be idle: a running task makes them refuse', async () => {
      const handle = await context.spawn({ cwd: ws });
      await context.exec(handle, 'echo changed > file.txt');
      const task = await context.execBackground(handle, 'sleep 30');
      await expect(context.commit!(handle)).rejects.toThrow(/1 background task\(s\) still run/);
      await expect(context.discard!(handle)).rejects.toThrow(/still run/);
      await context.killBackground(handle, task.id);
      expect(readFileSync(join(ws, 'file.txt'), 'utf8')).toBe('host\n');
      await context.discard!(handle);
      expect((await context.exec(handle, 'cat file.txt')).stdout).toBe('host\n');
      await context.destroy(handle);
    });

    it("berth's own file methods refuse an overlay handle rather than bypass its changes", async () => {
      const handle = await context.spawn({ cwd: ws });
      await expect(context.readFile(handle, 'file.txt')).rejects.toMatchObject({ code: 'E_CAPABILITY' });
      await expect(context.writeFile(handle, 'new.txt', 'x')).rejects.toMatchObject({ code: 'E_CAPABILITY' });
      // The handle's own task logs are berth's files, not the workspace's: readable as ever.
      const task = await context.execBackground(handle, 'echo logged');
      await context.waitBackground(handle, task.id, { timeoutMs: 10_000 });
      expect(await context.readFile(handle, task.outputPath)).toBe('logged\n');
      expect(readdirSync(ws)).toEqual(['file.txt']);
      await context.destroy(handle);
    });

    it('selections name host paths inside the workspace; others are refused', async () => {
      const handle = await context.spawn({ cwd: ws });
      await context.exec(handle, 'echo a > a.txt; echo b > b.txt');
      expect(await context.diff!(handle, { paths: ['a.txt'] })).toContain('+++ b/a.txt');
      await expect(context.diff!(handle, { paths: ['/etc'] })).rejects.toThrow(/outside the workspace/);
      await expect(context.diff!(handle, { path: ['a.txt'] } as never)).rejects.toThrow(/paths/);
      const committed = await context.commit!(handle, { paths: [join(ws, 'a.txt')] });
      expect(committed.applied).toEqual([join(ws, 'a.txt')]);
      expect(readdirSync(ws).sort()).toEqual(['a.txt', 'file.txt']);
      expect((await context.changes!(handle)).map((change) => change.path)).toEqual([join(ws, 'b.txt')]);
      await context.destroy(handle);
      rmSync(join(ws, 'a.txt'));
    });
  });

  it.skipIf(!isRoot)('a SIGKILLed host leaves no overlay holder and no mount behind', async () => {
    const stateDir = join(base, 'state-killed-host');
    const script = [
      `const { createProcessContext } = await import(${JSON.stringify(join(dist, 'contexts/process/index.js'))});`,
      `const { createSandboxPolicy } = await import(${JSON.stringify(join(dist, 'sandbox/index.js'))});`,
      `const ws = ${JSON.stringify(ws)};`,
      `const context = createProcessContext({ workspaceRoot: ws, sandbox: createSandboxPolicy({ writableRoots: [ws], env: {} }), overlay: { stateDir: ${JSON.stringify(stateDir)} } });`,
      'const handle = await context.spawn({ cwd: ws });',
      "await context.execBackground(handle, 'echo kept > host-killed.txt; sleep 60');",
      "console.log('ready'); setInterval(() => {}, 1000);",
    ].join('\n');
    const host = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      host.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      host.once('exit', (code) => reject(new Error(`host exited ${code} before it was ready`)));
    });
    const holders = () =>
      spawnSync('pgrep', ['-f', `berth-overlay .*${stateDir}`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
    const task = () =>
      spawnSync('pgrep', ['-f', 'echo kept > host-killed.txt'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
    expect(holders().length).toBe(1);
    expect(task().length).toBeGreaterThan(0);
    host.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (holders().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(holders()).toEqual([]);
    while (task().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(task()).toEqual([]);
    // Nothing the task wrote reached the workspace: its changes lived in the gone namespace's overlay.
    expect(readdirSync(ws)).toEqual(['file.txt']);
  });

  it('a context without the overlay has no transactions (the review tools then offer none)', () => {
    const plain = createProcessContext({ workspaceRoot: ws });
    expect([plain.changes, plain.diff, plain.commit, plain.discard, plain.fork]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(typeof context.changes).toBe('function');
  });
});
