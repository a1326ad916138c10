// How the suite decides a planted process is gone, against real processes: by pid where pids
// carry across commands, by heartbeat where they do not, and never by a heartbeat it cannot see.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import { Fixture } from '../../src/testing/fixture.js';
import { resolveConformanceOptions } from '../../src/testing/index.js';
import { grandchildCommand } from '../../src/testing/process-probe.js';

let dir: string;
let context: ProcessContext;
let fx: Fixture;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-process-watch-')));
  context = createProcessContext({ cwd: dir });
  fx = new Fixture(
    context,
    resolveConformanceOptions({
      name: 'watch',
      createContext: () => context,
      outputPolicy: { maxOutputBytes: 1024, maxSpillBytes: 0 },
      spawnConfig: { cwd: dir },
    }),
  );
  await fx.setUp();
});

afterAll(async () => {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already ended by its test
    }
  }
  await fx.tearDown();
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Plants a probe outside any exec (its own process group), the way a leaked descendant lives. */
async function plant(pidFile: string): Promise<ChildProcess> {
  const child = spawn('/bin/sh', ['-c', `${grandchildCommand(pidFile)}\nwait`], {
    detached: true,
    stdio: 'ignore',
  });
  children.push(child);
  for (let i = 0; i < 200; i++) {
    if (await fx.exists(`${pidFile}.beat`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the probe never started beating');
}

describe('Fixture.watch', () => {
  it('watches by pid where pids carry across commands, and sees the process die', async () => {
    const pidFile = join(dir, 'by-pid.pid');
    const child = await plant(pidFile);
    const watch = await fx.watch(pidFile, 'pid mode');
    expect(watch.mode).toBe('pid');
    expect(await watch.gone()).toBe(false);
    process.kill(-(child.pid as number), 'SIGKILL');
    await expect.poll(() => watch.gone(), { timeout: 10_000 }).toBe(true);
  });

  it('falls back to the heartbeat when the recorded pid means nothing here', async () => {
    const pidFile = join(dir, 'by-beat.pid');
    const child = await plant(pidFile);
    // As if the pid came from another pid namespace: a number no live process carries.
    writeFileSync(pidFile, '4194000\n');
    const watch = await fx.watch(pidFile, 'heartbeat mode');
    expect(watch.mode).toBe('heartbeat');
    expect(await watch.gone(), 'a ticking heartbeat is alive').toBe(false);
    process.kill(-(child.pid as number), 'SIGKILL');
    expect(await watch.gone(), 'a stopped heartbeat is gone').toBe(true);
  });

  it('refuses to watch a process it can see neither by pid nor by heartbeat', async () => {
    const pidFile = join(dir, 'invisible.pid');
    writeFileSync(pidFile, '4194001\n');
    writeFileSync(`${pidFile}.beat`, '7\n');
    await expect(fx.watch(pidFile, 'invisible')).rejects.toThrow(
      /visible neither by pid nor by its heartbeat/,
    );
  });

  it('expectGone names survivors and reports a heartbeat-mode verdict', async () => {
    const pidFile = join(dir, 'survivor.pid');
    const child = await plant(pidFile);
    const watch = await fx.watch(pidFile, 'survivor');
    const notes: string[] = [];
    await expect(fx.expectGone([watch], 'kill()', async (m) => void notes.push(m))).rejects.toThrow(
      `kill(): descendant ${watch.pid} still runs after the call settled`,
    );
    process.kill(-(child.pid as number), 'SIGKILL');
    await expect.poll(() => watch.gone(), { timeout: 10_000 }).toBe(true);
    const beatFile = join(dir, 'beat-only.pid');
    const ticker = await plant(beatFile);
    writeFileSync(beatFile, '4194002\n');
    const beatWatch = await fx.watch(beatFile, 'beat');
    process.kill(-(ticker.pid as number), 'SIGKILL');
    await fx.expectGone([beatWatch], 'kill()', async (m) => void notes.push(m));
    expect(notes).toEqual([expect.stringContaining('verified by its heartbeat stopping')]);
  });
});
