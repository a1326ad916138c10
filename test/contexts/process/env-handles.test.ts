import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CapabilityError,
  ContainmentError,
  createProcessContext,
  InvalidArgumentError,
  NotFoundError,
  UnknownHandleError,
} from '../../../src/contexts/process/index.js';
import { makeContext } from './helpers.js';

const saved = { ...process.env };
let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-env-'));
  process.env.PLAIN_VISIBLE_VAR = 'plain';
  process.env.MY_SERVICE_API_KEY = 'sk-secret';
  process.env.GITHUB_TOKEN = 'ghp-secret';
  process.env.AWS_REGION = 'eu-west-1';
});
afterEach(() => {
  for (const name of ['PLAIN_VISIBLE_VAR', 'MY_SERVICE_API_KEY', 'GITHUB_TOKEN', 'AWS_REGION']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(scratch, { recursive: true, force: true });
});

const show =
  'echo "p=$PLAIN_VISIBLE_VAR k=$MY_SERVICE_API_KEY t=$GITHUB_TOKEN a=$AWS_REGION h=$HOME path=$(test -n "$PATH" && echo set)"';

describe('environment', () => {
  it('inherits by default but scrubs credential-shaped names', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    expect((await ctx.exec(h, show)).stdout).toBe(`p=plain k= t= a= h=${process.env.HOME} path=set\n`);
  });

  it('explicit entries survive the scrub: per call, per handle, per context', async () => {
    const ctx = makeContext({ env: { GITHUB_TOKEN: 'ctx-token' } });
    const h = await ctx.spawn({ env: { AWS_REGION: 'handle-region' } });
    const result = await ctx.exec(h, show, { env: { MY_SERVICE_API_KEY: 'call-key' } });
    expect(result.stdout).toBe(
      `p=plain k=call-key t=ctx-token a=handle-region h=${process.env.HOME} path=set\n`,
    );
  });

  it('undefined removes an inherited entry', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    expect(
      (await ctx.exec(h, 'echo "p=$PLAIN_VISIBLE_VAR"', { env: { PLAIN_VISIBLE_VAR: undefined } })).stdout,
    ).toBe('p=\n');
  });

  it('inheritEnv false: only the minimal base plus explicit entries', async () => {
    const ctx = makeContext({ inheritEnv: false });
    const h = await ctx.spawn();
    const names = (await ctx.exec(h, 'env | cut -d= -f1 | sort', { env: { EXTRA: '1' } })).stdout
      .trim()
      .split('\n');
    const allowed = new Set([
      'PATH',
      'HOME',
      'SHELL',
      'LANG',
      'LC_ALL',
      'USER',
      'TERM',
      'TMPDIR',
      'EXTRA',
      'NO_COLOR',
      'PAGER',
      'GIT_PAGER',
      'PWD',
      'SHLVL',
      'OLDPWD',
      '_',
    ]);
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    expect(names).toContain('PATH');
    expect(names).toContain('EXTRA');
    expect(names).not.toContain('PLAIN_VISIBLE_VAR');
  });

  it('execBackground and execStream see the same environment', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const task = await ctx.execBackground(h, show);
    await ctx.waitBackground(h, task.id);
    expect(await ctx.readFile(h, task.outputPath)).toBe(`p=plain k= t= a= h=${process.env.HOME} path=set\n`);
    const stream = await ctx.execStream!(h, 'echo "$NO_COLOR$GITHUB_TOKEN"');
    let out = '';
    stream.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    stream.stderr?.resume();
    await stream.exited;
    expect(out).toBe('1\n');
  });
});

describe('handles', () => {
  it('are plain serializable data usable after a JSON round trip', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: scratch });
    expect(Object.keys(h).sort()).toEqual(['cwd', 'id', 'type']);
    expect(h.type).toBe('process');
    const revived = JSON.parse(JSON.stringify(h));
    expect((await ctx.exec(revived, 'pwd')).stdout).toBe(`${scratch}\n`);
  });

  it('unknown, foreign, mistyped and destroyed handles are UnknownHandleError', async () => {
    const ctx = makeContext();
    const other = makeContext();
    const foreign = await other.spawn();
    const h = await ctx.spawn();
    await expect(ctx.exec({ id: 'process-nope', type: 'process', cwd: '/' }, 'true')).rejects.toBeInstanceOf(
      UnknownHandleError,
    );
    await expect(ctx.exec(foreign, 'true')).rejects.toBeInstanceOf(UnknownHandleError);
    await expect(ctx.readFile({ ...h, type: 'docker' }, '/etc/hostname')).rejects.toBeInstanceOf(
      UnknownHandleError,
    );
    await ctx.destroy(h);
    const calls = [
      () => ctx.exec(h, 'true'),
      () => ctx.readFile(h, '/etc/hostname'),
      () => ctx.writeFile(h, join(scratch, 'x'), 'x'),
      () => ctx.listFiles(h, '/'),
      () => ctx.fileSize!(h, '/'),
      () => ctx.listBackground(h),
      () => ctx.execStream!(h, ['true']),
      () => ctx.openTerminal!(h, { cols: 80, rows: 24 }),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ code: 'E_UNKNOWN_HANDLE' });
    }
    await expect(ctx.destroy(h)).resolves.toBeUndefined();
  });

  it('a non-handle is InvalidArgumentError', async () => {
    const ctx = makeContext();
    await expect(ctx.exec(null as never, 'true')).rejects.toMatchObject({ field: 'handle' });
    await expect(ctx.exec('process-1' as never, 'true')).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('destroy ends a running exec (aborted) and leaves other handles alone', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const a = await ctx.spawn();
    const b = await ctx.spawn();
    let started!: () => void;
    const printed = new Promise<void>((resolve) => {
      started = resolve;
    });
    const running = ctx.exec(a, 'echo started; sleep 60', { onOutput: () => started() });
    await printed;
    await ctx.destroy(a);
    expect(await running).toMatchObject({ aborted: true, stdout: 'started\n' });
    expect((await ctx.exec(b, 'echo alive')).stdout).toBe('alive\n');
  });

  it('spawn refuses container-only fields, missing or non-directory cwd', async () => {
    const ctx = makeContext();
    await expect(ctx.spawn({ image: 'alpine' })).rejects.toBeInstanceOf(CapabilityError);
    await expect(ctx.spawn({ ports: [{ container: 80 }] })).rejects.toMatchObject({
      capability: 'SpawnConfig.ports',
    });
    await expect(ctx.spawn({ cwd: join(scratch, 'missing') })).rejects.toBeInstanceOf(NotFoundError);
    writeFileSync(join(scratch, 'file'), '');
    await expect(ctx.spawn({ cwd: join(scratch, 'file') })).rejects.toMatchObject({ field: 'config.cwd' });
    await expect(ctx.spawn({ env: { A: 1 as never } })).rejects.toMatchObject({ field: 'config.env.A' });
    await expect(ctx.spawn('x' as never)).rejects.toMatchObject({ field: 'config' });
  });
});

describe('options and capabilities', () => {
  it('rejects bad options naming the field', () => {
    const bad: [unknown, string][] = [
      [{ killGraceMs: 0 }, 'options.killGraceMs'],
      [{ defaultTimeoutMs: 'slow' }, 'options.defaultTimeoutMs'],
      [{ inheritEnv: 'no' }, 'options.inheritEnv'],
      [{ output: { maxOutputBytes: 0 } }, 'options.output.maxOutputBytes'],
      [{ output: { maxSpillBytes: -1 } }, 'options.output.maxSpillBytes'],
      [{ workspaceRoot: 'relative' }, 'options.workspaceRoot'],
      [{ sandbox: 'yes' }, 'options.sandbox'],
      [{ timeout: 30 }, 'options.timeout'],
      [{ env: { A: 2 } }, 'options.env.A'],
    ];
    for (const [options, field] of bad) {
      expect(() => createProcessContext(options as never), field).toThrow(InvalidArgumentError);
      try {
        createProcessContext(options as never);
      } catch (error) {
        expect((error as InvalidArgumentError).field).toBe(field);
      }
    }
    expect(() => createProcessContext({ workspaceRoot: join(scratch, 'missing') })).toThrow(
      /existing directory/,
    );
  });

  it('declares capabilities truthfully', () => {
    const plain = makeContext();
    expect(plain.type).toBe('process');
    expect(plain.capabilities).toEqual({
      shell: true,
      filesystem: true,
      network: true,
      stream: true,
      terminal: true,
      background: true,
      backgroundStdin: true,
      glob: true,
      ports: false,
      containment: false,
      isolation: 'none',
    });
    expect(plain.getMappedPort).toBeUndefined();
    expect(makeContext({ workspaceRoot: scratch }).capabilities.containment).toBe(true);
  });

  it('a handle cwd outside the root is a ContainmentError', async () => {
    const ctx = makeContext({ workspaceRoot: scratch });
    await expect(ctx.spawn({ cwd: '/' })).rejects.toBeInstanceOf(ContainmentError);
  });
});

describe('close', () => {
  it('ends every handle and task, removes the private directory, refuses new handles', async () => {
    const { existsSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const { alive } = await import('./helpers.js');
    const ctx = createProcessContext({ killGraceMs: 300 });
    const a = await ctx.spawn();
    const b = await ctx.spawn();
    const task = await ctx.execBackground(a, 'sleep 60');
    const moved = await ctx.execBackground(b, 'sleep 60');
    const privateDir = dirname(dirname(task.outputPath));
    expect(existsSync(privateDir)).toBe(true);
    await ctx.close();
    expect(alive(task.pid)).toBe(false);
    expect(alive(moved.pid)).toBe(false);
    expect(existsSync(privateDir)).toBe(false);
    await expect(ctx.spawn()).rejects.toMatchObject({ code: 'E_CONTEXT_DESTROYED' });
    await expect(ctx.exec(a, 'true')).rejects.toBeInstanceOf(UnknownHandleError);
  });
});
