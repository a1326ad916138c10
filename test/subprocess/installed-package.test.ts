/**
 * berth installed as a dependency the way npm 11 does by default, with install scripts blocked:
 * `npm pack` of this checkout, `npm install --ignore-scripts` of the tarball into a new project.
 * Nothing is built at install, so the first command must build the supervisor into the per-user
 * cache (here a fresh XDG_CACHE_HOME), concurrent first uses must agree on one binary, and a
 * machine without a C compiler must get a typed refusal that says what to do, with
 * `supervise: false` as the explicit way out.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSleepMarker, pidsWithMarker } from '../support/process-markers.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'berth-installed-'));
const project = join(scratch, 'project');

// One probe: create a process context in the installed package, run `command`, print JSON.
const PROBE = `
import { createProcessContext } from 'berth/process';
const [command, supervise] = process.argv.slice(2);
const ctx = createProcessContext(supervise === 'off' ? { supervise: false } : {});
try {
  const handle = await ctx.spawn();
  const result = await ctx.exec(handle, command, { timeoutMs: 30000 });
  await ctx.destroy(handle);
  console.log(JSON.stringify({ ok: true, exitCode: result.exitCode, stdout: result.stdout }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.name, code: error.code, message: error.message }));
} finally {
  await ctx.close();
}
`;

interface ProbeResult {
  ok: boolean;
  exitCode?: number | null;
  stdout?: string;
  name?: string;
  code?: string;
  message?: string;
}

async function probe(command: string, env: NodeJS.ProcessEnv, supervise?: 'off'): Promise<ProbeResult> {
  const { stdout } = await run(process.execPath, ['probe.mjs', command, ...(supervise ? [supervise] : [])], {
    cwd: project,
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ProbeResult;
}

/** A fresh per-user cache, and the supervisor key directories in it. */
function freshCache(name: string): { env: NodeJS.ProcessEnv; keyDirs: () => string[]; root: string } {
  const base = join(scratch, name);
  mkdirSync(base);
  const root = join(base, 'berth', 'supervisor');
  return {
    env: { XDG_CACHE_HOME: base },
    root,
    keyDirs: () => (existsSync(root) ? readdirSync(root).map((key) => join(root, key)) : []),
  };
}

beforeAll(async () => {
  // dist/ is fresh (test/support/fresh-dist.ts); packing must not rebuild it (prepare runs tsc).
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
    cwd: repo,
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const tarball = join(scratch, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'uses-berth', private: true, type: 'module' }),
  );
  writeFileSync(join(project, 'probe.mjs'), PROBE);
  await run(
    'npm',
    [
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--omit=optional',
      tarball,
    ],
    { cwd: project, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
  );
}, 420_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('berth installed as a dependency with install scripts blocked', () => {
  it('ships the source and no build, and asks for no install script', () => {
    const installed = join(project, 'node_modules', 'berth');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    expect(existsSync(join(installed, 'native', 'supervise.c'))).toBe(true);
    expect(existsSync(join(installed, 'native', 'build'))).toBe(false);
    for (const hook of ['preinstall', 'install', 'postinstall'])
      expect(manifest.scripts?.[hook]).toBeUndefined();
  });

  it('builds the supervisor on first use into the per-user cache, and every command runs under it', async () => {
    const cache = freshCache('first-use');
    const marker = newSleepMarker();
    // The shell's parent is its owner; the double-forked sleep must end with the handle.
    const first = await probe(`cat /proc/$PPID/comm; (setsid sleep ${marker} &)`, cache.env);
    expect(first).toMatchObject({ ok: true, exitCode: 0, stdout: 'berth-supervise\n' });
    expect(pidsWithMarker(marker)).toEqual([]);
    const [keyDir, ...others] = cache.keyDirs();
    expect(others).toEqual([]);
    expect(readdirSync(keyDir!)).toEqual(['berth-supervise']);
    // The second use finds it (same file, not rebuilt).
    const before = readFileSync(join(keyDir!, 'berth-supervise'));
    expect(await probe('cat /proc/$PPID/comm', { ...cache.env, CC: '/nonexistent/cc' })).toMatchObject({
      ok: true,
      stdout: 'berth-supervise\n',
    });
    expect(readFileSync(join(keyDir!, 'berth-supervise')).equals(before)).toBe(true);
  }, 180_000);

  it('concurrent first uses in several processes all run, and leave one whole binary', async () => {
    const cache = freshCache('concurrent');
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, index) => probe(`echo run ${index}`, cache.env)),
    );
    expect(results).toEqual(
      Array.from({ length: 4 }, (_, index) =>
        expect.objectContaining({ ok: true, stdout: `run ${index}\n` }),
      ),
    );
    const [keyDir, ...others] = cache.keyDirs();
    expect(others).toEqual([]);
    expect(readdirSync(keyDir!)).toEqual(['berth-supervise']);
  }, 240_000);

  it('without a C compiler, refuses with a typed error naming what to install and the opt-out', async () => {
    const cache = freshCache('no-compiler');
    const refused = await probe('echo never', { ...cache.env, CC: '/nonexistent/cc' });
    expect(refused).toMatchObject({
      ok: false,
      name: 'SupervisorUnavailableError',
      code: 'E_SUPERVISOR_UNAVAILABLE',
    });
    expect(refused.message).toMatch(/needs a C compiler, but none was found/);
    expect(refused.message).toMatch(/apt-get install gcc/);
    expect(refused.message).toMatch(/supervise: false/);
    expect(cache.keyDirs().flatMap((dir) => readdirSync(dir))).toEqual([]);
    // The explicit opt-out runs the command, without an owner.
    const unowned = await probe('echo unowned', { ...cache.env, CC: '/nonexistent/cc' }, 'off');
    expect(unowned).toMatchObject({ ok: true, exitCode: 0, stdout: 'unowned\n' });
  }, 120_000);

  it('never builds into a cache directory another user could have planted or can write', async () => {
    const base = join(scratch, 'planted');
    const elsewhere = join(scratch, 'elsewhere');
    const temp = join(scratch, 'planted-tmp');
    mkdirSync(base);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(base, 'berth'));
    const fallback = join(temp, `berth-${process.getuid!()}`);
    mkdirSync(fallback, { recursive: true });
    chmodSync(fallback, 0o777);
    const env = { XDG_CACHE_HOME: base, TMPDIR: temp };
    const refused = await probe('echo never', env);
    expect(refused).toMatchObject({ ok: false, code: 'E_SUPERVISOR_UNAVAILABLE' });
    expect(refused.message).toMatch(/no private directory to build it in/);
    expect(refused.message).toMatch(/XDG_CACHE_HOME/);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(fallback)).toEqual([]);
    // A private fallback under the temp directory is used when the home cache is not.
    chmodSync(fallback, 0o700);
    expect(await probe('cat /proc/$PPID/comm', env)).toMatchObject({ ok: true, stdout: 'berth-supervise\n' });
    expect(readdirSync(join(fallback, 'supervisor'))).toHaveLength(1);
    expect(readdirSync(elsewhere)).toEqual([]);
  }, 120_000);

  it('the CLI refuses at start without a compiler, naming --no-supervise, which then runs the command', async () => {
    const cache = freshCache('cli');
    const env = { ...process.env, ...cache.env, CC: '/nonexistent/cc' };
    const cli = join(project, 'node_modules', 'berth', 'dist', 'cli', 'main.js');
    const refused = await run(process.execPath, [cli, 'run', '--no-sandbox', '--', 'echo', 'never'], {
      cwd: project,
      env,
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stdout: 'ran', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).not.toMatch(/never/);
    expect(refused.stderr).toMatch(/needs a C compiler, but none was found/);
    expect(refused.stderr).toMatch(/--no-supervise/);
    const { stdout } = await run(
      process.execPath,
      [cli, 'run', '--no-sandbox', '--no-supervise', '--', 'echo', 'ran'],
      {
        cwd: project,
        env,
        timeout: 60_000,
      },
    );
    expect(stdout).toBe('ran\n');
  }, 120_000);
});
