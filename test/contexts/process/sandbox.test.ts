import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ContainmentError,
  SandboxDeniedError,
  SandboxUnavailableError,
} from '../../../src/contexts/process/index.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';
import { readProcStat } from '../../../src/subprocess/proc-stat.js';
import { waitUntil } from '../../../src/testing/wait-until.js';
import { newSleepMarker, pidsWithMarker } from '../../support/process-markers.js';
import { makeContext } from './helpers.js';

let base: string;
let writable: string;
let readOnly: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-sbx-'));
  writable = join(base, 'writable');
  readOnly = join(base, 'read-only');
  mkdirSync(writable);
  mkdirSync(readOnly);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const refusal = /^berth: sandbox unavailable: .+\. .+\n$/;

describe('sandbox unavailable: fails closed, nothing runs', () => {
  const brokenPolicy = () =>
    createSandboxPolicy({ writableRoots: [writable], bwrapPath: join(base, 'no-bwrap-here') });

  it('exec returns 127 with the reason on stderr', async () => {
    const ctx = makeContext({ sandbox: brokenPolicy() });
    expect(ctx.capabilities.isolation).toBe('os-sandbox');
    const h = await ctx.spawn({ cwd: writable });
    const result = await ctx.exec(h, 'touch ran');
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toMatch(refusal);
    expect(existsSync(join(writable, 'ran'))).toBe(false);
  });

  it('execBackground returns a task already exited 127 with the reason in its log', async () => {
    const ctx = makeContext({ sandbox: brokenPolicy() });
    const h = await ctx.spawn({ cwd: writable });
    const exits: number[] = [];
    const task = await ctx.execBackground(h, 'touch ran', { onExit: (exit) => exits.push(exit.exitCode!) });
    expect(await ctx.waitBackground(h, task.id)).toMatchObject({ exitCode: 127, killed: false });
    expect(exits).toEqual([127]);
    expect(await ctx.readFile(h, task.outputPath)).toMatch(refusal);
    expect(existsSync(join(writable, 'ran'))).toBe(false);
  });

  it('execStream carries the reason on stderr and exits 127', async () => {
    const ctx = makeContext({ sandbox: brokenPolicy() });
    const h = await ctx.spawn({ cwd: writable });
    const stream = await ctx.execStream!(h, ['touch', 'ran']);
    expect(stream.stderr!.readableObjectMode).toBe(false); // bytes, like a real pipe
    let stderr = '';
    stream.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    stream.stdout.resume();
    expect(await stream.exited).toBe(127);
    await new Promise((resolve) => stream.stderr!.once('end', resolve));
    expect(stderr).toMatch(refusal);
    expect(existsSync(join(writable, 'ran'))).toBe(false);
  });

  it('openTerminal rejects with SandboxUnavailableError', async () => {
    const ctx = makeContext({ sandbox: brokenPolicy() });
    const h = await ctx.spawn({ cwd: writable });
    await expect(ctx.openTerminal!(h, { cols: 80, rows: 24 })).rejects.toBeInstanceOf(
      SandboxUnavailableError,
    );
  });
});

describe('sandbox applied (bubblewrap)', () => {
  it('commands write only inside writable roots; network capability follows the policy', async () => {
    const ctx = makeContext({ sandbox: createSandboxPolicy({ writableRoots: [writable] }) });
    expect(ctx.capabilities.network).toBe(false);
    const h = await ctx.spawn({ cwd: writable });
    const inside = await ctx.exec(h, 'echo ok > inside.txt && cat inside.txt');
    expect(inside).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    const outside = await ctx.exec(h, `echo no > ${join(readOnly, 'x.txt')}`);
    expect(outside.exitCode).not.toBe(0);
    expect(existsSync(join(readOnly, 'x.txt'))).toBe(false);
  });

  it('writeFile applies the writable-roots check to the resolved real path', async () => {
    const ctx = makeContext({
      sandbox: createSandboxPolicy({ writableRoots: [writable], network: 'allow' }),
    });
    expect(ctx.capabilities.network).toBe(true);
    const h = await ctx.spawn({ cwd: writable });
    await ctx.writeFile(h, 'deep/ok.txt', 'fine');
    expect(readFileSync(join(writable, 'deep', 'ok.txt'), 'utf8')).toBe('fine');
    await expect(ctx.writeFile(h, join(readOnly, 'no.txt'), 'x')).rejects.toBeInstanceOf(SandboxDeniedError);
    await expect(ctx.writeFile(h, join(readOnly, 'newdir', 'no.txt'), 'x')).rejects.toBeInstanceOf(
      SandboxDeniedError,
    );
    expect(existsSync(join(readOnly, 'no.txt'))).toBe(false);
    expect(existsSync(join(readOnly, 'newdir'))).toBe(false);
  });

  it('writeFile through a symlink leading out of both the workspace root and the writable roots is a ContainmentError', async () => {
    const root = realpathSync(writable);
    const out = join(base, 'out');
    mkdirSync(out);
    symlinkSync('../out/secret', join(root, 'link'));
    const ctx = makeContext({
      workspaceRoot: root,
      sandbox: createSandboxPolicy({ writableRoots: [root], network: 'allow' }),
    });
    const h = await ctx.spawn({ cwd: root });
    const error = await ctx.writeFile(h, join(root, 'link'), 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContainmentError);
    expect((error as ContainmentError).code).toBe('E_CONTAINMENT');
    expect(existsSync(join(out, 'secret'))).toBe(false);
    // Inside both, a symlink still works, and the write check still sees the real target.
    symlinkSync('inner.txt', join(root, 'inner-link'));
    await ctx.writeFile(h, join(root, 'inner-link'), 'in');
    expect(readFileSync(join(root, 'inner.txt'), 'utf8')).toBe('in');
  });

  it('a sandboxed terminal has job control under its supervisor: ^Z, fg, ^C, and the exit code', async () => {
    const ctx = makeContext({ sandbox: createSandboxPolicy({ writableRoots: [writable] }) });
    const h = await ctx.spawn({ cwd: writable });
    const terminal = await ctx.openTerminal!(h, {
      cols: 80,
      rows: 24,
      shell: ['/bin/bash', '--norc', '--noprofile', '-i'],
      env: { PS1: '$ ' },
    });
    let text = '';
    terminal.onData((chunk) => {
      text += Buffer.from(chunk).toString('utf8');
    });
    const marker = newSleepMarker();
    terminal.write(`sleep ${marker}\n`);
    // Host pids (the sandbox has its own pid namespace); the job is the foreground group once it runs.
    const job = await waitUntil('the job to start', () => pidsWithMarker(marker)[0]);
    const state = () => readProcStat(job)?.state;
    terminal.write('\x1a');
    await waitUntil('the job stopped by ^Z', () => state() === 'T' || undefined);
    terminal.write('fg\n');
    await waitUntil('the job resumed by fg', () => state() === 'S' || undefined);
    terminal.write('\x03');
    await waitUntil('the job ended by ^C', () => pidsWithMarker(marker).length === 0 || undefined);
    terminal.write('echo "status=$?"\n');
    await waitUntil(
      `the shell to report SIGINT (got ${JSON.stringify(text.slice(-200))})`,
      () => /status=130/.test(text) || undefined,
    );
    terminal.write('exit 4\n');
    expect(await terminal.exited).toBe(4);
  });
});
