import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  DockerApiError,
  DockerImageNotFoundError,
  InvalidArgumentError,
  UnknownHandleError,
} from '../../../src/contexts/docker/index.js';
import { inCI } from '../../support/ci.js';
import {
  describeDocker,
  ENGINE_SOCKET,
  engine,
  engineGet,
  engineHasRuntime,
  testContext,
} from './docker-engine.js';

// gVisor is optional on a developer machine; CI registers it (scripts/start-dockerd.sh), so there it must run.
const hasRunsc = engine.available && (inCI() || (await engineHasRuntime('runsc')));

describeDocker('docker spawn', () => {
  const context = testContext();
  afterAll(() => context.close());

  it('applies cwd, env, user and labels, and marks the container as berth-owned', async () => {
    const handle = await context.spawn({
      cwd: '/srv/app',
      env: { GREETING: 'hi there' },
      user: '65534:65534',
      labels: { team: 'qa' },
    });
    try {
      expect(handle).toMatchObject({ type: 'docker', cwd: '/srv/app' });
      const result = await context.exec(handle, 'pwd; echo "$GREETING"; id -u; id -g');
      expect(result.stdout).toBe('/srv/app\nhi there\n65534\n65534\n');
      const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(handle)}/json`)).body);
      expect(inspect.Config.Labels).toMatchObject({
        team: 'qa',
        'dev.berth.managed': 'true',
        'dev.berth.owner.pid': String(process.pid),
        'dev.berth.handle': handle.id,
      });
      // File methods act as the container user: its files are its own, and root's stay root's.
      await context.writeFile(handle, '/tmp/sub/owned.txt', 'x');
      expect((await context.exec(handle, 'stat -c %u:%g /tmp/sub/owned.txt')).stdout).toBe('65534:65534\n');
      expect(await context.readFile(handle, '/tmp/sub/owned.txt')).toBe('x');
      expect(await context.fileSize!(handle, '/tmp/sub/owned.txt')).toBe(1);
      // The engine created the cwd, owned by root.
      await expect(context.writeFile(handle, 'denied.txt', 'x')).rejects.toMatchObject({ code: 'E_IO' });
      await expect(context.readFile(handle, '/tmp/missing')).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
      await expect(context.readFile(handle, '/tmp')).rejects.toMatchObject({ code: 'E_IS_DIRECTORY' });
    } finally {
      await context.destroy(handle);
    }
  });

  it("defaults cwd to the image's working directory", async () => {
    const handle = await context.spawn();
    try {
      expect(handle.cwd).toBe('/workspace');
      // Commands get berth's non-interactive defaults when neither the handle nor the call sets them.
      expect((await context.exec(handle, 'echo "$TERM $NO_COLOR $PAGER"')).stdout).toBe('dumb 1 cat\n');
    } finally {
      await context.destroy(handle);
    }
  });

  it('publishes an engine-assigned port that getMappedPort resolves and the host can reach', async () => {
    const handle = await context.spawn({ ports: [{ container: 8080 }] });
    try {
      await context.writeFile(handle, '/www/index.html', 'served from the container');
      await context.execBackground!(handle, 'httpd -f -p 8080 -h /www');
      const port = await context.getMappedPort!(handle, 8080);
      expect(port).toBeGreaterThan(0);
      expect(await context.getMappedPort!(handle, 9999)).toBeNull();
      let body = '';
      for (let attempt = 0; attempt < 50 && body === ''; attempt++) {
        // Each attempt has its own deadline: a connection the proxy accepted before httpd listened
        // must not hang the loop.
        body = await fetch(`http://127.0.0.1:${port}/index.html`, { signal: AbortSignal.timeout(2000) })
          .then((res) => res.text())
          .catch(() => new Promise<string>((resolve) => setTimeout(() => resolve(''), 100)));
      }
      expect(body).toBe('served from the container');
      await expect(context.getMappedPort!(handle, 0)).rejects.toThrow(InvalidArgumentError);
    } finally {
      await context.destroy(handle);
    }
  });

  it('binds a host directory into the container, read-write and read-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-docker-mount-'));
    writeFileSync(join(dir, 'from-host.txt'), 'host bytes');
    const handle = await context.spawn({
      mounts: [
        { source: dir, target: '/mnt/rw' },
        { source: dir, target: '/mnt/ro', readOnly: true },
      ],
    });
    try {
      expect(await context.readFile(handle, '/mnt/rw/from-host.txt')).toBe('host bytes');
      expect((await context.exec(handle, 'echo back > /mnt/rw/from-container.txt')).exitCode).toBe(0);
      expect(readFileSync(join(dir, 'from-container.txt'), 'utf8')).toBe('back\n');
      const denied = await context.exec(handle, 'echo no > /mnt/ro/x');
      expect(denied.exitCode).not.toBe(0);
      expect(denied.stderr).toMatch(/Read-only file system/);
    } finally {
      await context.destroy(handle);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets memory, cpu and pid limits on the container', async () => {
    const handle = await context.spawn({ resources: { memoryBytes: 64 * 1024 * 1024, cpus: 0.5, pids: 64 } });
    try {
      const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(handle)}/json`)).body);
      expect(inspect.HostConfig).toMatchObject({
        Memory: 64 * 1024 * 1024,
        NanoCpus: 500_000_000,
        PidsLimit: 64,
      });
      // The limits are enforced by the kernel, not only recorded.
      const limit = await context.exec(
        handle,
        'cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max',
      );
      expect(limit.stdout.trim()).toBe(String(64 * 1024 * 1024));
    } finally {
      await context.destroy(handle);
    }
  });

  it('applies opt-in hardening: no capabilities, no new privileges, read-only root', async () => {
    const handle = await context.spawn({
      hardening: { dropAllCapabilities: true, noNewPrivileges: true, readOnlyRootfs: true },
    });
    try {
      const status = await context.exec(handle, 'grep -E "^(CapEff|NoNewPrivs)" /proc/self/status');
      expect(status.stdout).toMatch(/CapEff:\s+0000000000000000/);
      expect(status.stdout).toMatch(/NoNewPrivs:\s+1/);
      const write = await context.exec(handle, 'touch /workspace/x');
      expect(write.stderr).toMatch(/Read-only file system/);
      await expect(context.writeFile(handle, '/workspace/y', 'z')).rejects.toMatchObject({ code: 'E_IO' });
      // berth's own machinery still works: timeouts and background logs live in its tmpfs.
      const timed = await context.exec(handle, 'sleep 20', { timeoutMs: 200 });
      expect(timed.timedOut).toBe(true);
      const task = await context.execBackground!(handle, 'echo logged');
      await context.waitBackground!(handle, task.id);
      expect(await context.readFile(handle, task.outputPath)).toBe('logged\n');
    } finally {
      await context.destroy(handle);
    }
  });

  it('joins a user-defined network by name', async () => {
    const name = `berth-test-net-${process.pid}`;
    const created = await fetchEngine('POST', '/networks/create', { Name: name });
    expect(created.status).toBe(201);
    const { Id: networkId } = JSON.parse(created.body);
    try {
      const handle = await context.spawn({ network: name });
      try {
        const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(handle)}/json`)).body);
        expect(Object.keys(inspect.NetworkSettings.Networks)).toEqual([name]);
      } finally {
        await context.destroy(handle);
      }
      await expect(context.spawn({ network: 'berth-no-such-network' })).rejects.toThrow(DockerApiError);
    } finally {
      await fetchEngine('DELETE', `/networks/${networkId}`);
    }
  });

  it('runs under the runc runtime when asked, and names a runtime the engine lacks', async () => {
    const handle = await context.spawn({ runtime: 'runc' });
    try {
      const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(handle)}/json`)).body);
      expect(inspect.HostConfig.Runtime).toBe('runc');
    } finally {
      await context.destroy(handle);
    }
    const error = await context
      .spawn({ runtime: 'berth-no-such-runtime' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DockerApiError);
    expect((error as Error).message).toMatch(/berth-no-such-runtime/);
    expect((error as Error).message).toMatch(/daemon\.json/);
  });

  it.skipIf(!hasRunsc)('runs under gVisor (runsc) when the engine has it', async () => {
    const handle = await context.spawn({ runtime: 'runsc' });
    try {
      const kernel = await context.exec(handle, 'dmesg | head -1');
      expect(kernel.stdout).toMatch(/gVisor/);
      const timed = await context.exec(handle, 'sleep 986 & sleep 987', { timeoutMs: 300 });
      expect(timed.timedOut).toBe(true);
      expect((await context.exec(handle, 'ps -o args')).stdout).not.toMatch(/sleep 98[67]/);
    } finally {
      await context.destroy(handle);
    }
  });

  it('reports a missing image with DockerImageNotFoundError and leaves nothing behind', async () => {
    const error = await context
      .spawn({ image: 'berth-no-such-image:never' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DockerImageNotFoundError);
    expect(error).toMatchObject({ code: 'E_DOCKER_IMAGE_NOT_FOUND', image: 'berth-no-such-image:never' });
    expect((error as Error).message).toMatch(/docker pull berth-no-such-image:never/);
  });

  it('rejects bad options before touching the engine, naming the field', async () => {
    await expect(context.spawn({ resources: { pids: 0 } })).rejects.toMatchObject({
      field: 'resources.pids',
    });
    await expect(context.spawn({ mounts: [{ source: 'relative', target: '/x' }] })).rejects.toMatchObject({
      field: 'mounts[0].source',
    });
  });

  it('close() while a spawn is in flight removes that container too; later spawns are refused', async () => {
    const closing = testContext();
    const spawning = closing.spawn().then(
      () => null,
      (caught: unknown) => caught,
    );
    await closing.close();
    expect(await spawning).toMatchObject({ code: 'E_CONTEXT_DESTROYED' });
    await expect(closing.spawn()).rejects.toMatchObject({ code: 'E_CONTEXT_DESTROYED' });
  });

  it('destroy removes the container, is idempotent, and retires the handle', async () => {
    const handle = await context.spawn();
    const id = context.containerId(handle);
    await context.destroy(handle);
    await context.destroy(handle);
    expect((await engineGet(`/containers/${id}/json`)).status).toBe(404);
    await expect(context.exec(handle, 'true')).rejects.toThrow(UnknownHandleError);
    await expect(context.readFile(handle, '/etc/passwd')).rejects.toMatchObject({ code: 'E_UNKNOWN_HANDLE' });
  });
});

function fetchEngine(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return import('node:http').then(
    (http) =>
      new Promise((resolve, reject) => {
        const req = http.request(
          {
            socketPath: ENGINE_SOCKET,
            path,
            method,
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
      }),
  );
}
