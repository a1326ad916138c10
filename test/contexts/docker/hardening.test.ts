/**
 * `hardening: 'recommended'` on the real engine. The attack it answers: a service on the host
 * bound to 0.0.0.0 is reachable from a default container through the bridge gateway (and the
 * host's other addresses), and root in a default container keeps its capabilities. Each test
 * checks the world from inside the container, with a positive control where one is needed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RECOMMENDED_PIDS_LIMIT } from '../../../src/contexts/docker/hardening.js';
import { InvalidArgumentError } from '../../../src/contexts/docker/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { describeDocker, engineGet, testContext } from './docker-engine.js';

const SECRET = `host-only-${process.pid}`;

describeDocker('docker: hardening "recommended"', () => {
  const context = testContext();
  let service: Server;
  let port: number;
  /** Every IPv4 address of this host, the bridge gateway among them. */
  let hostAddresses: string[];

  beforeAll(async () => {
    service = createServer((_, res) => res.end(`${SECRET}\n`));
    await new Promise<void>((resolve) => service.listen(0, '0.0.0.0', resolve));
    port = (service.address() as AddressInfo).port;
    hostAddresses = Object.values(networkInterfaces())
      .flat()
      .filter((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)
      .map((entry) => entry!.address);
    const bridge = JSON.parse((await engineGet('/networks/bridge')).body);
    const gateway = bridge.IPAM?.Config?.[0]?.Gateway as string | undefined;
    if (gateway !== undefined && !hostAddresses.includes(gateway)) hostAddresses.push(gateway);
  });
  afterAll(async () => {
    await context.close();
    await new Promise((resolve) => service.close(resolve));
  });

  /** What the container gets back from the host service at each host address. */
  async function reachHost(handle: ContextHandle): Promise<string> {
    const probes = hostAddresses.map(
      (address) => `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 2 ${address} ${port} 2>&1 | tail -n 1`,
    );
    return (await context.exec(handle, probes.join('; '), { timeoutMs: 20_000 })).stdout;
  }

  it('control: a default container reaches a host service bound on 0.0.0.0', async () => {
    expect(hostAddresses.length).toBeGreaterThan(0);
    const handle = await context.spawn();
    try {
      expect(await reachHost(handle)).toContain(SECRET);
    } finally {
      await context.destroy(handle);
    }
  });

  it('the host service is out of reach, capabilities are gone, no new privileges, root read-only, cwd and /tmp writable', async () => {
    const handle = await context.spawn({ hardening: 'recommended' });
    try {
      expect(await reachHost(handle)).not.toContain(SECRET);

      const status = await context.exec(
        handle,
        'grep -E "^(CapEff|CapBnd|CapPrm|NoNewPrivs)" /proc/self/status',
      );
      expect(status.stdout).toMatch(/CapPrm:\s+0000000000000000/);
      expect(status.stdout).toMatch(/CapEff:\s+0000000000000000/);
      expect(status.stdout).toMatch(/CapBnd:\s+0000000000000000/);
      expect(status.stdout).toMatch(/NoNewPrivs:\s+1/);
      // Without CAP_NET_RAW / CAP_CHOWN root cannot do what root usually can.
      expect((await context.exec(handle, 'chown 1:1 /tmp')).exitCode).not.toBe(0);

      const rootWrite = await context.exec(handle, 'touch /etc/berth-probe');
      expect(rootWrite.stderr).toMatch(/Read-only file system/);
      await expect(context.writeFile(handle, '/etc/berth-probe', 'x')).rejects.toMatchObject({
        code: 'E_IO',
      });

      // The image names no working directory, so the preset gives it one, writable.
      expect(handle.cwd).toBe('/workspace');
      const inCwd = await context.exec(
        handle,
        'pwd && echo made > here.txt && cat here.txt && echo t > /tmp/t && cat /tmp/t',
      );
      expect(inCwd.stdout).toBe('/workspace\nmade\nt\n');
      await context.writeFile(handle, 'via-api.txt', 'through the archive API');
      expect(await context.readFile(handle, '/workspace/via-api.txt')).toBe('through the archive API');
      await context.writeFile(handle, '/tmp/via-api.txt', 'tmp too');
      expect(await context.readFile(handle, '/tmp/via-api.txt')).toBe('tmp too');

      // berth's own machinery (background logs in its state directory) still works.
      const task = await context.execBackground!(handle, 'echo logged');
      await context.waitBackground!(handle, task.id);
      expect(await context.readFile(handle, task.outputPath)).toBe('logged\n');

      const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(handle)}/json`)).body);
      expect(inspect.HostConfig).toMatchObject({
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
        PidsLimit: RECOMMENDED_PIDS_LIMIT,
        NetworkMode: 'none',
      });
    } finally {
      await context.destroy(handle);
    }
  });

  it('the pids limit holds: a fork bomb stops at it', async () => {
    const handle = await context.spawn({ hardening: 'recommended', resources: { pids: 32 } });
    try {
      const bomb = await context.exec(
        handle,
        'for i in $(seq 1 64); do sleep 30 & done 2>&1; echo spawned; jobs -p | wc -l',
        {
          timeoutMs: 20_000,
        },
      );
      expect(bomb.stdout + bomb.stderr).toMatch(/fork|Resource temporarily unavailable|can't/i);
    } finally {
      await context.destroy(handle);
    }
  });

  it('a given cwd becomes the writable place, and a bind mount there is used as it is', async () => {
    const handle = await context.spawn({ hardening: 'recommended', cwd: '/srv/app' });
    try {
      expect(handle.cwd).toBe('/srv/app');
      expect((await context.exec(handle, 'touch /srv/app/x && echo ok')).stdout).toBe('ok\n');
      const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(handle)}/json`)).body);
      expect(Object.keys(inspect.Config.Volumes ?? {}).sort()).toEqual(['/srv/app', '/tmp']);
    } finally {
      await context.destroy(handle);
    }
    const host = mkdtempSync(join(tmpdir(), 'berth-hardening-mount-'));
    const mounted = await context.spawn({
      hardening: 'recommended',
      cwd: '/work',
      mounts: [{ source: host, target: '/work' }],
    });
    try {
      await context.writeFile(mounted, 'from-api.txt', 'api');
      expect((await context.exec(mounted, 'echo cmd > from-cmd.txt && echo ok')).stdout).toBe('ok\n');
      expect(readFileSync(join(host, 'from-api.txt'), 'utf8')).toBe('api');
      expect(readFileSync(join(host, 'from-cmd.txt'), 'utf8')).toBe('cmd\n');
      const inspect = JSON.parse((await engineGet(`/containers/${context.containerId(mounted)}/json`)).body);
      expect(Object.keys(inspect.Config.Volumes ?? {})).toEqual(['/tmp']);
    } finally {
      await context.destroy(mounted);
      rmSync(host, { recursive: true, force: true });
    }
  });

  it('a network the caller names is honoured (then the host is reachable: the engine cannot take it away)', async () => {
    const handle = await context.spawn({ hardening: 'recommended', network: 'bridge' });
    try {
      const status = await context.exec(handle, 'grep CapEff /proc/self/status');
      expect(status.stdout).toMatch(/CapEff:\s+0000000000000000/);
      expect(await reachHost(handle)).toContain(SECRET);
    } finally {
      await context.destroy(handle);
    }
  });

  it('ports without a named network are refused before anything is created', async () => {
    await expect(context.spawn({ hardening: 'recommended', ports: [{ container: 80 }] })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(context.spawn({ hardening: 'strict' as never })).rejects.toThrow(/must be "recommended"/);
  });
});
