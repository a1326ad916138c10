import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { type BackgroundMachinery, BackgroundRegistry } from '../../src/contract/index.js';
import type { BackgroundExit, BackgroundStall } from '../../src/contract/types.js';

// Real child processes stand behind the machinery: the registry is exercised against real exits.
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function machinery(
  script: string,
  options: { ignoreTerm?: boolean } = {},
): BackgroundMachinery & { child: ChildProcess } {
  const child = spawn('/bin/sh', ['-c', options.ignoreTerm ? `trap '' TERM; ${script}` : script], {
    stdio: 'ignore',
  });
  children.push(child);
  const settled = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal }));
  });
  return {
    child,
    pid: child.pid!,
    outputPath: `/logs/${child.pid}.log`,
    command: script,
    terminate: () => void child.kill('SIGTERM'),
    killNow: () => void child.kill('SIGKILL'),
    settled,
    logBytes: () => 0,
    logTruncated: () => false,
  };
}

describe('BackgroundRegistry', () => {
  it('fires onExit once, lists, waits, and isolates handles', async () => {
    const registry = new BackgroundRegistry();
    const exits: BackgroundExit[] = [];
    const task = registry.register(machinery('exit 3'), {
      handleId: 'a',
      stallMs: 60_000,
      onExit: (exit) => exits.push(exit),
    });
    expect(registry.list('b')).toEqual([]);
    expect(await registry.wait('b', task.id)).toBeNull();
    expect(await registry.kill('b', task.id)).toBeNull();
    const exit = await registry.wait('a', task.id);
    expect(exit).toMatchObject({ id: task.id, exitCode: 3, signal: null, killed: false });
    expect(exits).toEqual([exit]);
    expect(registry.list('a')[0]).toMatchObject({ status: 'exited', exit });
    expect(await registry.kill('a', task.id)).toEqual(exit); // idempotent: the recorded exit
    expect(await registry.wait('a', 'nope')).toBeNull();
  });

  it('an owner callback that throws or rejects (async) reaches neither waiters nor the host', async () => {
    const registry = new BackgroundRegistry();
    const failing = registry.register(machinery('exit 1'), {
      handleId: 'a',
      stallMs: 60_000,
      onExit: async () => {
        throw new Error('async owner bug');
      },
    });
    const throwing = registry.register(machinery('exit 2'), {
      handleId: 'a',
      stallMs: 60_000,
      onExit: () => {
        throw new Error('sync owner bug');
      },
    });
    expect(await registry.wait('a', failing.id)).toMatchObject({ exitCode: 1 });
    expect(await registry.wait('a', throwing.id)).toMatchObject({ exitCode: 2 });
    // An unhandled rejection would fail this test run.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('kill resolves after exit; wait times out and aborts with null', async () => {
    const registry = new BackgroundRegistry();
    const task = registry.register(machinery('sleep 30'), { handleId: 'a', stallMs: 60_000 });
    expect(await registry.wait('a', task.id, { timeoutMs: 20 })).toBeNull();
    const controller = new AbortController();
    const waiting = registry.wait('a', task.id, { signal: controller.signal });
    controller.abort();
    expect(await waiting).toBeNull();
    const exit = await registry.kill('a', task.id);
    expect(exit).toMatchObject({ killed: true, signal: 'SIGTERM', exitCode: null });
    expect(registry.list('a')[0]!.status).toBe('killed');
  });

  it('kill rejects with the backend error when the task could not be ended, without waiting for an exit', async () => {
    const registry = new BackgroundRegistry();
    const unreachable = new Error('the engine does not answer');
    const task = registry.register(
      {
        pid: 1,
        outputPath: '/logs/stuck.log',
        command: 'sleep 1000',
        terminate: () => Promise.reject(unreachable),
        killNow: () => undefined,
        settled: new Promise(() => {}), // never settles: only the rejection can end the wait
        logBytes: () => 0,
        logTruncated: () => false,
      },
      { handleId: 'a', stallMs: 60_000 },
    );
    await expect(registry.kill('a', task.id)).rejects.toBe(unreachable);
    expect((await registry.list('a'))[0]).toMatchObject({ status: 'running' });
  });

  it('rejects bad wait options with the field named', async () => {
    const registry = new BackgroundRegistry();
    await expect(registry.wait('a', 'x', { timeoutMs: -1 })).rejects.toMatchObject({
      field: 'options.timeoutMs',
    });
    await expect(registry.wait('a', 'x', { signal: 'no' as unknown as AbortSignal })).rejects.toMatchObject({
      field: 'options.signal',
    });
  });

  it('fires onStall after silence, once per silent stretch, and again after new output', async () => {
    const registry = new BackgroundRegistry();
    const stalls: BackgroundStall[] = [];
    const task = registry.register(machinery('sleep 30'), {
      handleId: 'a',
      stallMs: 50,
      onStall: (stall) => stalls.push(stall),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stalls).toHaveLength(1);
    expect(stalls[0]!.silentMs).toBeGreaterThanOrEqual(50);
    registry.noteOutput(task.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stalls).toHaveLength(2);
    await registry.kill('a', task.id);
  });

  it('onStall fires only after the full silence and never reports less than stallMs', async () => {
    // Timers run on a millisecond clock that can lag the precise one: a stall check that lands a
    // fraction of a millisecond early must re-arm, not fire (or round down below stallMs).
    const registry = new BackgroundRegistry();
    const stallMs = 7;
    let quietSince = 0;
    const observed: { silentMs: number; measuredMs: number }[] = [];
    let next: (() => void) | undefined;
    const task = registry.register(machinery('sleep 30'), {
      handleId: 'a',
      stallMs,
      onStall: (stall) => {
        observed.push({ silentMs: stall.silentMs, measuredMs: performance.now() - quietSince });
        next?.();
      },
    });
    for (let round = 0; round < 40; round++) {
      const fired = new Promise<void>((resolve) => {
        next = resolve;
      });
      // Start each silence at a different sub-millisecond phase of the timer clock.
      const spin = performance.now() + (round % 10) / 10;
      while (performance.now() < spin) {}
      quietSince = performance.now();
      registry.noteOutput(task.id);
      await fired;
    }
    expect(observed).toHaveLength(40);
    for (const { silentMs, measuredMs } of observed) {
      expect(silentMs).toBeGreaterThanOrEqual(stallMs);
      expect(measuredMs).toBeGreaterThanOrEqual(stallMs);
    }
    await registry.kill('a', task.id);
  });

  it('reassign moves running tasks and replaces owner callbacks; settled ones stay', async () => {
    const registry = new BackgroundRegistry();
    const oldExits: string[] = [];
    const newExits: string[] = [];
    const finished = registry.register(machinery('true'), { handleId: 'child', stallMs: 60_000 });
    await registry.wait('child', finished.id);
    const running = registry.register(machinery('sleep 30'), {
      handleId: 'child',
      stallMs: 60_000,
      onExit: (exit) => oldExits.push(exit.id),
    });
    const moved = registry.reassign('child', 'parent', { onExit: (exit) => newExits.push(exit.id) });
    expect(moved.map((task) => task.id)).toEqual([running.id]);
    expect(registry.list('child').map((task) => task.id)).toEqual([finished.id]);
    expect(await registry.kill('child', running.id)).toBeNull();
    await registry.kill('parent', running.id);
    expect(newExits).toEqual([running.id]);
    expect(oldExits).toEqual([]);
  });

  it('destroyHandle escalates to KILL after the grace for a task that ignores TERM, and forgets the handle', async () => {
    const registry = new BackgroundRegistry();
    const stubborn = machinery('sleep 30', { ignoreTerm: true });
    const task = registry.register(stubborn, { handleId: 'a', stallMs: 60_000 });
    const other = registry.register(machinery('sleep 30'), { handleId: 'b', stallMs: 60_000 });
    // Give the shell time to install its trap before TERM arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const logs = await registry.destroyHandle('a', 200);
    expect(logs).toEqual([task.outputPath]);
    expect(stubborn.child.signalCode).toBe('SIGKILL');
    expect(registry.list('a')).toEqual([]);
    expect(registry.list('b')).toHaveLength(1);
    await registry.kill('b', other.id);
  });
});
