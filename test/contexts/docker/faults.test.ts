import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  ContainerGoneError,
  createDockerContext,
  DockerUnavailableError,
  sweepDockerContainers,
} from '../../../src/contexts/docker/index.js';
import type { BackgroundExit } from '../../../src/contract/types.js';
import { describeDocker, ENGINE_SOCKET, engineGet, TEST_IMAGE, testContext } from './docker-engine.js';

function enginePost(path: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: ENGINE_SOCKET,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Settle `promise` or fail the test: "no hang" is part of what these tests assert. */
async function within<T>(what: string, promise: Promise<T>, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describeDocker('docker faults', () => {
  const context = testContext();
  afterAll(() => context.close());

  it('a container killed mid-exec fails the exec with ContainerGoneError, without hanging', async () => {
    const handle = await context.spawn();
    try {
      const running = context.exec(handle, 'echo started; sleep 300', { timeoutMs: 120_000 });
      running.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await enginePost(`/containers/${context.containerId(handle)}/kill`)).status).toBe(204);
      const error = await within(
        'the exec after the kill',
        running.then(
          () => null,
          (caught: unknown) => caught,
        ),
      );
      expect(error).toBeInstanceOf(ContainerGoneError);
      expect(error).toMatchObject({ code: 'E_CONTAINER_GONE', containerId: context.containerId(handle) });
      expect((error as Error).message).toMatch(/spawn a new one/);
      // Later calls say the same, and every kind of call settles.
      await expect(context.exec(handle, 'true')).rejects.toThrow(ContainerGoneError);
      await expect(context.execBackground!(handle, 'true')).rejects.toThrow(ContainerGoneError);
      await expect(context.execStream!(handle, 'cat')).rejects.toThrow(ContainerGoneError);
    } finally {
      await within('destroy of the dead handle', context.destroy(handle));
    }
  });

  it('a container removed under a running background task and stream settles both', async () => {
    const handle = await context.spawn();
    const exits: BackgroundExit[] = [];
    try {
      const task = await context.execBackground!(handle, 'sleep 300', { onExit: (exit) => exits.push(exit) });
      const stream = await context.execStream!(handle, 'cat');
      stream.stdout.resume();
      stream.stderr?.resume();
      const removed = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            socketPath: ENGINE_SOCKET,
            method: 'DELETE',
            path: `/containers/${context.containerId(handle)}?force=1`,
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(removed).toBe(204);
      const exit = await within('waitBackground after removal', context.waitBackground!(handle, task.id));
      expect(exit).toMatchObject({ id: task.id, exitCode: null });
      expect(exits).toHaveLength(1);
      expect(await within('the stream after removal', stream.exited)).toBeNull();
    } finally {
      await within('destroy after removal', context.destroy(handle));
    }
  });

  it('a timed-out command leaves no process in the container: its group, orphans, TERM-ignorers and setsid escapees', async () => {
    const handle = await context.spawn();
    try {
      const result = await context.exec(
        handle,
        [
          'sleep 901 &',
          '( sleep 902 & )',
          'sh -c \'trap "" TERM; sleep 903\' &',
          'setsid sleep 904 &',
          'echo planted',
          'sleep 905',
        ].join('\n'),
        { timeoutMs: 500 },
      );
      expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, stdout: 'planted\n' });
      expect(['SIGTERM', 'SIGKILL']).toContain(result.signal);
      const ps = await context.exec(handle, 'ps -o pid,args');
      expect(ps.stdout).not.toMatch(/sleep 90[1-5]/);
    } finally {
      await context.destroy(handle);
    }
  });

  it('an abort ends the command the same way and says aborted', async () => {
    const handle = await context.spawn();
    try {
      const controller = new AbortController();
      const running = context.exec(handle, 'sleep 911 & sleep 912', { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      const result = await within('the aborted exec', running);
      expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
      expect((await context.exec(handle, 'ps -o args')).stdout).not.toMatch(/sleep 91[12]/);
    } finally {
      await context.destroy(handle);
    }
  });

  it('an engine socket that does not exist is DockerUnavailableError naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-docker-missing-'));
    const socketPath = join(dir, 'docker.sock');
    const missing = createDockerContext({ socketPath, image: TEST_IMAGE });
    try {
      const error = await missing.spawn().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DockerUnavailableError);
      expect(error).toMatchObject({ code: 'E_DOCKER_UNAVAILABLE', endpoint: `unix://${socketPath}` });
      expect((error as Error).message).toMatch(/ENOENT/);
      expect((error as Error).message).toMatch(/start dockerd, or point DOCKER_HOST/);
      await expect(sweepDockerContainers({ socketPath })).rejects.toThrow(DockerUnavailableError);
      // Bad options are still reported as such: they are checked before the engine is asked.
      await expect(missing.spawn({ resources: { pids: 0 } })).rejects.toMatchObject({
        field: 'resources.pids',
      });
    } finally {
      await missing.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('DOCKER_HOST pointing at a port that refuses is DockerUnavailableError', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const previous = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = `tcp://127.0.0.1:${port}`;
    try {
      const refused = createDockerContext({ image: TEST_IMAGE });
      const error = await refused.spawn().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DockerUnavailableError);
      expect((error as Error).message).toMatch(new RegExp(`tcp://127\\.0\\.0\\.1:${port}.*ECONNREFUSED`));
      await refused.close();
    } finally {
      if (previous === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = previous;
    }
  });

  it('an engine that accepts but never answers is DockerUnavailableError after requestTimeoutMs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-docker-silent-'));
    const socketPath = join(dir, 'silent.sock');
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const silent = createDockerContext({ socketPath, image: TEST_IMAGE, requestTimeoutMs: 300 });
    try {
      const error = await within(
        'spawn against a silent engine',
        silent.spawn().catch((caught: unknown) => caught),
        5000,
      );
      expect(error).toBeInstanceOf(DockerUnavailableError);
      expect((error as Error).message).toMatch(/no answer (within|from the engine for) 300 ms/);
    } finally {
      await silent.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sweep removes containers whose owner process is gone and spares live owners', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(dead.stdout);
    const { hostname } = await import('node:os');
    const create = async (name: string, pid: number) => {
      const created = await enginePost(`/containers/create?name=${name}`, {
        Image: TEST_IMAGE,
        Cmd: ['sleep', '300'],
        Labels: {
          'dev.berth.managed': 'true',
          'dev.berth.owner.host': hostname(),
          'dev.berth.owner.pid': String(pid),
          'dev.berth.handle': name,
        },
      });
      expect(created.status).toBe(201);
      return (JSON.parse(created.body) as { Id: string }).Id;
    };
    const abandoned = await create(`berth-sweep-dead-${process.pid}`, deadPid);
    const live = await create(`berth-sweep-live-${process.pid}`, process.pid);
    try {
      const removed = await context.sweep();
      expect(removed).toContain(abandoned);
      expect(removed).not.toContain(live);
      expect((await engineGet(`/containers/${abandoned}/json`)).status).toBe(404);
      expect((await engineGet(`/containers/${live}/json`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => {
        const req = http.request(
          { socketPath: ENGINE_SOCKET, method: 'DELETE', path: `/containers/${live}?force=1` },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.end();
      });
    }
  });
});
