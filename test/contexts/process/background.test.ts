import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, SpawnError, UnknownHandleError } from '../../../src/contexts/process/index.js';
import type { BackgroundExit, BackgroundStall } from '../../../src/contract/types.js';
import { alive, eventually, makeContext, sleep } from './helpers.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-bg-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('execBackground', () => {
  it('settles once spawned, interleaves stdout and stderr in order, fires onExit once', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const exits: BackgroundExit[] = [];
    const task = await ctx.execBackground(h, 'echo one; echo two >&2; echo three; sleep 0.2; exit 4', {
      onExit: (exit) => exits.push(exit),
    });
    expect(task.pid).toBeGreaterThan(0);
    expect(alive(task.pid)).toBe(true);
    expect((await ctx.listBackground(h))[0]).toMatchObject({ id: task.id, status: 'running', exit: null });
    const exit = await ctx.waitBackground(h, task.id);
    expect(exit).toMatchObject({ id: task.id, exitCode: 4, killed: false, logTruncated: false });
    expect(exits).toEqual([exit]);
    expect(await ctx.readFile(h, task.outputPath)).toBe('one\ntwo\nthree\n');
    expect((await ctx.listBackground(h))[0]).toMatchObject({ status: 'exited', logBytes: 14 });
  });

  it('the log lives in a private 0700 directory as a 0600 file', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const task = await ctx.execBackground(h, 'true');
    await ctx.waitBackground(h, task.id);
    const { statSync } = await import('node:fs');
    expect(statSync(task.outputPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(task.outputPath)).mode & 0o777).toBe(0o700);
  });

  it('at the log cap: stops writing, marks the log, keeps the task alive and draining', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: scratch });
    const task = await ctx.execBackground(
      h,
      'head -c 100000 /dev/zero | tr "\\0" y; touch after-flood; sleep 60',
      {
        maxLogBytes: 1000,
      },
    );
    expect(await eventually(() => existsSync(join(scratch, 'after-flood')))).toBe(true);
    // The flood may still sit in the pipe when the file appears: wait for the log to reach its cap.
    let info = (await ctx.listBackground(h))[0];
    for (let i = 0; i < 100 && info?.logBytes !== 1000; i++) {
      await sleep(20);
      info = (await ctx.listBackground(h))[0];
    }
    expect(info).toMatchObject({ status: 'running', logBytes: 1000 });
    const log = await ctx.readFile(h, task.outputPath);
    expect(log.startsWith('y'.repeat(1000))).toBe(true);
    expect(log).toContain(
      '[berth: the log reached maxLogBytes=1000; later output is dropped while the task keeps running]',
    );
    const exit = await ctx.killBackground(h, task.id);
    expect(exit).toMatchObject({ killed: true, logTruncated: true });
    expect(await ctx.readFile(h, task.outputPath)).toContain(
      '[berth: 99000 bytes of output were dropped in total]',
    );
  });

  it('killBackground ends the whole group, is idempotent, and resolves after flush', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn({ cwd: scratch });
    const task = await ctx.execBackground(h, 'sleep 60 & echo $! > child.pid; echo ready; wait');
    expect(await eventually(() => existsSync(join(scratch, 'child.pid')))).toBe(true);
    await sleep(50);
    const child = Number(readFileSync(join(scratch, 'child.pid'), 'utf8'));
    const exit = await ctx.killBackground(h, task.id);
    expect(exit).toMatchObject({ killed: true, exitCode: null, signal: 'SIGTERM' });
    expect(alive(task.pid)).toBe(false);
    expect(alive(child)).toBe(false);
    expect(await ctx.readFile(h, task.outputPath)).toBe('ready\n');
    expect(await ctx.killBackground(h, task.id)).toEqual(exit);
    expect(await ctx.killBackground(h, 'bg-unknown')).toBeNull();
    expect((await ctx.listBackground(h))[0]!.status).toBe('killed');
  });

  it('onStall fires after silence', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const stalls: BackgroundStall[] = [];
    const task = await ctx.execBackground(h, 'echo hi; sleep 60', {
      stallMs: 150,
      onStall: (stall) => stalls.push(stall),
    });
    expect(await eventually(() => stalls.length > 0)).toBe(true);
    expect(stalls[0]).toMatchObject({ id: task.id, logBytes: 3 });
    expect(stalls[0]!.silentMs).toBeGreaterThanOrEqual(150);
    await ctx.killBackground(h, task.id);
  });

  it('waitBackground: null on timeout, abort, unknown id', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const task = await ctx.execBackground(h, 'sleep 60');
    expect(await ctx.waitBackground(h, task.id, { timeoutMs: 50 })).toBeNull();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    expect(await ctx.waitBackground(h, task.id, { signal: controller.signal })).toBeNull();
    expect(await ctx.waitBackground(h, 'nope')).toBeNull();
    await ctx.killBackground(h, task.id);
  });

  it("another handle's task is invisible to it", async () => {
    const ctx = makeContext();
    const a = await ctx.spawn();
    const b = await ctx.spawn();
    const task = await ctx.execBackground(a, 'sleep 60');
    expect(await ctx.listBackground(b)).toEqual([]);
    expect(await ctx.killBackground(b, task.id)).toBeNull();
    expect(await ctx.waitBackground(b, task.id, { timeoutMs: 10 })).toBeNull();
    expect(alive(task.pid)).toBe(true);
    await ctx.killBackground(a, task.id);
  });

  it('reassign moves running tasks and their logs outlive the old handle', async () => {
    const ctx = makeContext();
    const child = await ctx.spawn();
    const parent = await ctx.spawn();
    const oldExits: string[] = [];
    const newExits: string[] = [];
    const done = await ctx.execBackground(child, 'echo finished');
    await ctx.waitBackground(child, done.id);
    const running = await ctx.execBackground(child, 'echo running; sleep 60', {
      onExit: (e) => oldExits.push(e.id),
    });
    const moved = await ctx.reassignBackground(child, parent, { onExit: (e) => newExits.push(e.id) });
    expect(moved.map((task) => task.id)).toEqual([running.id]);
    await ctx.destroy(child);
    expect(existsSync(done.outputPath)).toBe(false);
    expect(alive(running.pid)).toBe(true);
    expect(await eventually(() => readFileSync(running.outputPath, 'utf8') === 'running\n')).toBe(true);
    expect(await ctx.readFile(parent, running.outputPath)).toBe('running\n');
    await ctx.killBackground(parent, running.id);
    expect(newExits).toEqual([running.id]);
    expect(oldExits).toEqual([]);
  });

  it('reassign refuses a non-handle or an unknown handle, naming which side', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    await expect(ctx.reassignBackground(null as never, h)).rejects.toMatchObject({ field: 'from' });
    await expect(ctx.reassignBackground(h, 'x' as never)).rejects.toMatchObject({ field: 'to' });
    await expect(
      ctx.reassignBackground(h, { id: 'process-gone', type: 'process', cwd: '/' }),
    ).rejects.toBeInstanceOf(UnknownHandleError);
    await expect(ctx.reassignBackground(h, h, { onExit: 'no' as never })).rejects.toMatchObject({
      field: 'callbacks.onExit',
    });
  });

  it('reassign to the same handle only rebinds callbacks', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const heard: string[] = [];
    const task = await ctx.execBackground(h, 'sleep 60', { onExit: () => heard.push('old') });
    expect(
      (await ctx.reassignBackground(h, h, { onExit: () => heard.push('new') })).map((t) => t.id),
    ).toEqual([task.id]);
    await ctx.killBackground(h, task.id);
    expect(heard).toEqual(['new']);
  });

  it('destroy terminates tasks, escalates to KILL after killGraceMs, removes logs', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn({ cwd: scratch });
    const exits: BackgroundExit[] = [];
    const stubborn = await ctx.execBackground(h, "trap '' TERM; echo armed; while :; do sleep 0.05; done", {
      onExit: (exit) => exits.push(exit),
    });
    const polite = await ctx.execBackground(h, 'sleep 60');
    expect(await eventually(() => readFileSync(stubborn.outputPath, 'utf8').includes('armed'))).toBe(true);
    await ctx.destroy(h);
    expect(alive(stubborn.pid)).toBe(false);
    expect(alive(polite.pid)).toBe(false);
    expect(exits[0]).toMatchObject({ killed: true, signal: 'SIGKILL' });
    expect(existsSync(stubborn.outputPath)).toBe(false);
    await expect(ctx.listBackground(h)).rejects.toBeInstanceOf(UnknownHandleError);
    await expect(ctx.execBackground(h, 'true')).rejects.toBeInstanceOf(UnknownHandleError);
    await ctx.destroy(h); // idempotent
  });

  it('the log stays readable through the context with workspaceRoot set; other private files do not', async () => {
    const ctx = makeContext({ workspaceRoot: scratch });
    const h = await ctx.spawn();
    const other = await ctx.spawn();
    const task = await ctx.execBackground(h, 'echo logged');
    await ctx.waitBackground(h, task.id);
    expect(await ctx.readFile(h, task.outputPath)).toBe('logged\n');
    expect(await ctx.fileSize(h, task.outputPath)).toBe(7);
    await expect(ctx.readFile(other, task.outputPath)).rejects.toMatchObject({ code: 'E_CONTAINMENT' });
    expect(await ctx.fileSize(other, task.outputPath)).toBeNull();
    await expect(ctx.readFile(h, join(dirname(task.outputPath), 'x.log'))).rejects.toMatchObject({
      code: 'E_CONTAINMENT',
    });
  });

  it('rejects bad options naming the field, and a bad cwd as SpawnError', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    await expect(ctx.execBackground(h, '')).rejects.toMatchObject({ field: 'command' });
    await expect(ctx.execBackground(h, 'true', { stallMs: 0 })).rejects.toMatchObject({
      field: 'options.stallMs',
    });
    await expect(ctx.execBackground(h, 'true', { maxLogBytes: -1 })).rejects.toMatchObject({
      field: 'options.maxLogBytes',
    });
    await expect(ctx.execBackground(h, 'true', { onExit: 1 as never })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect(ctx.execBackground(h, 'true', { cwd: join(scratch, 'missing') })).rejects.toBeInstanceOf(
      SpawnError,
    );
    expect(await ctx.listBackground(h)).toEqual([]);
  });
});
