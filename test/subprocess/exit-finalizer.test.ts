import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedSupervisorPath } from '../../src/subprocess/supervisor-location.js';
import { alive, type BuiltSubprocessModule, buildSubprocessModule, fixture, waitFor } from './helpers.js';

let built: BuiltSubprocessModule;
let moduleUrl = '';

// The host is a separate Node process, so it needs JavaScript (compiled into a scratch directory).
beforeAll(() => {
  built = buildSubprocessModule('berth-exit-host-');
  moduleUrl = built.moduleUrl;
});
afterAll(() => built.remove());

interface HostReport {
  root: number;
  descendants: number[];
  sigtermListeners: number;
}

/**
 * Start the fixture host; resolve its report once the tree is up, and its exit facts later.
 * @param supervisor - the supervisor path, or `off` for a runtime without one.
 */
function startHost(mode: string, supervisor = packagedSupervisorPath()) {
  const host = spawn(process.execPath, [fixture('exit-host.mjs'), moduleUrl, mode, supervisor], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  host.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  host.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    host.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const report = waitFor(
    () => stdout.includes('\n') && (JSON.parse(stdout.split('\n')[0]!) as HostReport),
    'the host report',
  ).catch((error: Error) => {
    throw new Error(`${error.message}; host stderr: ${stderr}`);
  });
  return { host, report, exited, stderr: () => stderr };
}

describe('host-exit finalizer', () => {
  it('kills every live tree synchronously when the host calls process.exit', async () => {
    const { report, exited } = startHost('exit');
    const { root: treeRoot, descendants } = await report;
    expect(descendants).toHaveLength(4);
    expect(await exited).toEqual({ code: 0, signal: null });
    for (const pid of [treeRoot, ...descendants]) {
      await waitFor(() => !alive(pid), `pid ${pid} to be gone after the host exited`);
    }
  });

  it('kills every live tree when the host dies of an uncaught exception', async () => {
    const { report, exited, stderr } = startHost('throw');
    const { root: treeRoot, descendants } = await report;
    const facts = await exited;
    expect(facts.code).toBe(1);
    expect(stderr()).toContain('host failed on purpose');
    for (const pid of [treeRoot, ...descendants]) {
      await waitFor(() => !alive(pid), `pid ${pid} to be gone after the host crashed`);
    }
  });

  it('installs no signal handler, and the tree still dies with a host killed by SIGTERM', async () => {
    const { host, report, exited } = startHost('wait');
    const { root: treeRoot, descendants } = await report;
    expect((await report).sigtermListeners).toBe(0);
    host.kill('SIGTERM');
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
    // No 'exit' listener ran; the supervisor saw its host die and killed the tree itself.
    for (const pid of [treeRoot, ...descendants]) {
      await waitFor(() => !alive(pid), `pid ${pid} to be gone after the host died of SIGTERM`);
    }
  });

  it('kills every live tree, setsid and orphaned members included, when the host is SIGKILLed', async () => {
    const { host, report, exited } = startHost('wait');
    const { root: treeRoot, descendants } = await report;
    host.kill('SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    for (const pid of [treeRoot, ...descendants]) {
      await waitFor(() => !alive(pid), `pid ${pid} to be gone after the host was SIGKILLed`);
    }
  });

  it('without the supervisor, a host dying of a signal leaves the tree running (the documented limit)', async () => {
    const { host, report, exited } = startHost('wait', 'off');
    const { root: treeRoot, descendants } = await report;
    host.kill('SIGTERM');
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
    const survivors = [treeRoot, ...descendants].filter((pid) => alive(pid));
    expect(survivors.length).toBeGreaterThan(0);
    for (const pid of survivors) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const pid of survivors) await waitFor(() => !alive(pid), `pid ${pid} cleanup`);
  });
});
