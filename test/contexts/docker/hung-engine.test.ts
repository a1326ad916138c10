// The Docker context against an engine that misbehaves, through a socket proxy in front of the real
// one: hung (accepts, never answers), slow (answers after the deadline), and reset mid-stream. Every
// call must settle within its own deadline, name the engine when the engine is what failed, and
// `destroy` must either remove the container or say it could not (and `sweep()` find it later).
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  ContainerGoneError,
  type DockerContext,
  DockerUnavailableError,
} from '../../../src/contexts/docker/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { describeDocker, ENGINE_SOCKET, engineGet, testContext } from './docker-engine.js';
import { type EngineProxy, startEngineProxy } from './engine-proxy.js';

const REQUEST_TIMEOUT_MS = 1500;
/** The engine's slack after a command's deadline (run-exec's ENGINE_SLACK_MS). */
const SLACK_MS = 2000;
/** Room for a loaded machine on top of each bound; the bound itself is what is asserted. */
const MARGIN_MS = 1500;

let proxy: EngineProxy;
let context: DockerContext;
let handle: ContextHandle;

/** How a promise settled, and when. */
async function settle<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/** The call failed within `boundMs`, with DockerUnavailableError naming the proxy's engine. */
async function expectEngineFailure(what: string, promise: Promise<unknown>, boundMs: number): Promise<Error> {
  const outcome = await settle(promise);
  expect(outcome.error, `${what} settled with ${JSON.stringify(outcome.value)}`).toBeInstanceOf(
    DockerUnavailableError,
  );
  expect((outcome.error as DockerUnavailableError).endpoint).toBe(`unix://${proxy.socketPath}`);
  expect(outcome.ms, `${what} took ${Math.round(outcome.ms)} ms`).toBeLessThan(boundMs + MARGIN_MS);
  return outcome.error as Error;
}

async function containerState(id: string): Promise<'running' | 'stopped' | 'gone'> {
  const answer = await engineGet(`/containers/${id}/json`);
  if (answer.status === 404) return 'gone';
  return (JSON.parse(answer.body) as { State: { Running: boolean } }).State.Running ? 'running' : 'stopped';
}

describeDocker('docker context on a misbehaving engine', () => {
  beforeAll(async () => {
    proxy = await startEngineProxy(ENGINE_SOCKET);
    context = testContext({
      socketPath: proxy.socketPath,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      killGraceMs: 500,
      destroyGraceMs: 500,
    });
    handle = await context.spawn();
  });
  beforeEach(() => proxy.setMode('pass'));
  afterAll(async () => {
    proxy.setMode('pass');
    await context.close().catch(() => undefined);
    await context.sweep().catch(() => undefined);
    await proxy.close();
  });

  it('hung: exec honours its timeoutMs, its abort, and requestTimeoutMs', async () => {
    proxy.setMode('hang');
    // Whichever comes first: the command's deadline plus the engine's slack, or requestTimeoutMs
    // for the request that never got an answer.
    await expectEngineFailure(
      'exec with timeoutMs 300',
      context.exec(handle, 'echo hi', { timeoutMs: 300 }),
      Math.min(300 + SLACK_MS, REQUEST_TIMEOUT_MS),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expectEngineFailure(
      'exec aborted at 300 ms',
      context.exec(handle, 'echo hi', { signal: controller.signal, timeoutMs: 60_000 }),
      300 + SLACK_MS,
    );
    await expectEngineFailure(
      'exec with a long timeout',
      context.exec(handle, 'echo hi', { timeoutMs: 60_000 }),
      REQUEST_TIMEOUT_MS,
    );
  });

  it('hung: every file, listing and port call fails within requestTimeoutMs, naming the engine', async () => {
    proxy.setMode('hang');
    const calls: [string, () => Promise<unknown>][] = [
      ['readFile', () => context.readFile(handle, '/etc/hostname')],
      ['readFileBytes', () => context.readFileBytes!(handle, '/etc/hostname')],
      ['readFileRange', () => context.readFileRange!(handle, '/etc/hostname', 0, 4)],
      ['writeFile', () => context.writeFile(handle, '/tmp/x', 'data')],
      ['listFiles', () => context.listFiles(handle, '/etc')],
      ['listFiles (glob)', () => context.listFiles(handle, '/etc/*.conf')],
      ['fileSize', () => context.fileSize!(handle, '/etc/hostname')],
      ['getMappedPort', () => context.getMappedPort!(handle, 80)],
    ];
    await Promise.all(calls.map(([what, call]) => expectEngineFailure(what, call(), REQUEST_TIMEOUT_MS)));
  });

  it('hung: spawn, execBackground, execStream, openTerminal and sweep fail within requestTimeoutMs', async () => {
    proxy.setMode('hang');
    await Promise.all([
      expectEngineFailure('spawn', context.spawn(), REQUEST_TIMEOUT_MS),
      expectEngineFailure('execBackground', context.execBackground!(handle, 'sleep 30'), REQUEST_TIMEOUT_MS),
      expectEngineFailure('execStream', context.execStream!(handle, 'cat'), REQUEST_TIMEOUT_MS),
      expectEngineFailure(
        'openTerminal',
        context.openTerminal!(handle, { cols: 80, rows: 24 }),
        REQUEST_TIMEOUT_MS,
      ),
      expectEngineFailure('sweep', context.sweep(), REQUEST_TIMEOUT_MS),
    ]);
  });

  it('hung: killBackground and a stream kill fail naming the engine instead of waiting forever', async () => {
    const task = await context.execBackground!(handle, 'sleep 300');
    const stream = await context.execStream!(handle, 'cat');
    stream.stdout.resume();
    stream.stderr?.resume();
    proxy.setMode('hang');
    const killed = await expectEngineFailure(
      'killBackground',
      context.killBackground!(handle, task.id),
      2 * SLACK_MS,
    );
    expect(killed.message).toMatch(/background task/);
    await expectEngineFailure('stream kill', stream.kill(), 2 * SLACK_MS);
    // The task's end is still observable: it settled (its streams were let go).
    expect(await context.waitBackground!(handle, task.id, { timeoutMs: 5000 })).not.toBeNull();
    proxy.setMode('pass');
    // Once the engine answers again the handle works, and the tagged processes can be ended.
    const after = await context.exec(handle, 'pkill -f "sleep 300"; pkill cat; echo ok');
    expect(after.stdout).toContain('ok');
  });

  it('hung: destroy throws saying the container could not be removed, and sweep() removes it later', async () => {
    const doomed = await context.spawn();
    const containerId = context.containerId(doomed);
    await context.execBackground!(doomed, 'sleep 300');
    proxy.setMode('hang');
    const destroyed = await settle(context.destroy(doomed));
    expect(destroyed.error).toMatchObject({ code: 'E_DOCKER_UNAVAILABLE' });
    expect((destroyed.error as Error).message).toMatch(
      new RegExp(
        `container ${containerId.slice(0, 12)} of handle ${doomed.id} could not be removed.*sweep\\(\\)`,
      ),
    );
    // Bounded: the tasks' grace twice, their termination's slack, the removal's patience.
    expect(destroyed.ms).toBeLessThan(2 * 500 + 2 * SLACK_MS + REQUEST_TIMEOUT_MS + MARGIN_MS);
    const outcome = await settle(context.destroy(doomed));
    // The first destroy already failed and forgot the handle; a second one has nothing to do.
    expect(outcome.error).toBeUndefined();
    expect(await containerState(containerId)).toBe('running');
    proxy.setMode('pass');
    expect(await context.sweep()).toContain(containerId);
    expect(await containerState(containerId)).toBe('gone');
  });

  it('hung: close tries every handle, releases the engine, and rejects saying what it could not remove', async () => {
    const other = testContext({
      socketPath: proxy.socketPath,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      destroyGraceMs: 500,
    });
    const kept = await other.spawn();
    const containerId = other.containerId(kept);
    proxy.setMode('hang');
    const closed = await settle(other.close());
    expect(closed.error).toMatchObject({ code: 'E_DOCKER_UNAVAILABLE' });
    expect((closed.error as Error).message).toContain(containerId.slice(0, 12));
    expect(closed.ms).toBeLessThan(2 * 500 + 2 * SLACK_MS + REQUEST_TIMEOUT_MS + MARGIN_MS);
    proxy.setMode('pass');
    expect(await context.sweep()).toContain(containerId);
    expect(await containerState(containerId)).toBe('gone');
  });

  it('slow: answers that come after the deadline fail the call within it', async () => {
    proxy.setMode('slow', REQUEST_TIMEOUT_MS + 1500);
    await Promise.all([
      expectEngineFailure('slow readFile', context.readFile(handle, '/etc/hostname'), REQUEST_TIMEOUT_MS),
      expectEngineFailure('slow spawn', context.spawn(), REQUEST_TIMEOUT_MS),
      expectEngineFailure('slow exec', context.exec(handle, 'echo hi', { timeoutMs: 1000 }), 1000 + SLACK_MS),
    ]);
    proxy.setMode('pass');
    // The slow answers still arrive after the calls gave up: nothing may be left of them.
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + 2000));
    await context.sweep();
  });

  it('reset mid-stream: an in-flight exec names the engine, not the container, which still runs', async () => {
    const running = settle(context.exec(handle, 'echo started; sleep 3011', { timeoutMs: 60_000 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.resetAll();
    const outcome = await running;
    expect(outcome.error).toBeInstanceOf(DockerUnavailableError);
    expect(outcome.error).not.toBeInstanceOf(ContainerGoneError);
    expect((outcome.error as Error).message).toMatch(/connection .*broke/);
    expect(outcome.ms).toBeLessThan(500 + SLACK_MS * 3 + MARGIN_MS);
    expect(await containerState(context.containerId(handle))).toBe('running');
    // berth ended the command's processes once the engine answered again.
    const left = await context.exec(handle, 'ps -o args | grep -c "[s]leep 3011" || true');
    expect(left.stdout.trim()).toBe('0');
  });

  it('reset mid-stream: a stream and a background task settle, and leave no process', async () => {
    const task = await context.execBackground!(handle, 'sleep 3012');
    const stream = await context.execStream!(handle, 'sleep 3013');
    stream.stdout.resume();
    stream.stderr?.resume();
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.resetAll();
    expect((await settle(stream.exited)).ms).toBeLessThan(SLACK_MS * 2 + MARGIN_MS);
    expect(await context.waitBackground!(handle, task.id, { timeoutMs: 10_000 })).not.toBeNull();
    const left = await context.exec(handle, 'ps -o args | grep -c "[s]leep 301[23]" || true');
    expect(left.stdout.trim()).toBe('0');
  });
});
