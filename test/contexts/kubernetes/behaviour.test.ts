/**
 * What the Kubernetes context does beyond the shared contract, observed through the fake API
 * server and inside the pods: the pod it creates, hardening as the processes feel it, progress
 * while a pod starts, the heartbeat, sweep of abandoned pods, and destroy leaving nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  HEARTBEAT_ANNOTATION,
  MANAGED_LABEL,
  NotFoundError,
} from '../../../src/contexts/kubernetes/index.js';
import { describeFakeCluster, type FakeCluster, startFakeCluster, TEST_IMAGE } from './fake-cluster.js';

const NAMESPACE = 'berth-test';

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeFakeCluster('kubernetes behaviour', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await startFakeCluster();
  });
  afterAll(async () => {
    await cluster.close();
  });

  it("spawn reports progress through to ready, in the kubeconfig's namespace, with berth's labels", async () => {
    const seen: string[] = [];
    const context = cluster.context({ onProgress: (progress) => seen.push(progress.stage) });
    try {
      const handle = await context.spawn({ labels: { team: 'a' } });
      expect(await context.namespace()).toBe(NAMESPACE);
      expect(seen[0]).toBe('created');
      expect(seen.at(-1)).toBe('ready');
      const pod = cluster.server.store.get(NAMESPACE, context.podName(handle))!;
      expect(pod.metadata!.labels).toMatchObject({ team: 'a', [MANAGED_LABEL]: 'true' });
      expect(await context.describe()).toContain(`namespace ${NAMESPACE}`);
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });

  it('hardening "recommended" as the pod\'s processes feel it: no capabilities, no new privileges, a read-only root, writable cwd and /tmp', async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn({ hardening: 'recommended' });
      expect(handle.cwd).toBe('/workspace');
      const status = await context.exec(handle, "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status");
      expect(status.stdout).toMatch(/CapEff:\s+0{16}/);
      expect(status.stdout).toMatch(/NoNewPrivs:\s+1/);
      const root = await context.exec(handle, 'touch /etc/berth-probe');
      expect(root.exitCode).not.toBe(0);
      expect(root.stderr).toMatch(/Read-only file system/i);
      const writable = await context.exec(handle, 'touch /tmp/ok ./ok && echo writable');
      expect(writable.stdout).toBe('writable\n');
      await context.writeFile(handle, 'notes.txt', 'kept');
      expect(await context.readFile(handle, '/workspace/notes.txt')).toBe('kept');
      await expect(context.writeFile(handle, '/etc/berth-probe', 'x')).rejects.toMatchObject({
        code: 'E_IO',
      });
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });

  it("a command's working directory that does not exist is a NotFoundError naming it", async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn();
      const error = await context
        .exec(handle, 'true', { cwd: '/no/such/dir' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).path).toBe('/no/such/dir');
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });

  it('the heartbeat annotation is renewed while the handle lives', async () => {
    const context = cluster.context({ heartbeatIntervalMs: 200 });
    try {
      const handle = await context.spawn();
      const name = context.podName(handle);
      const first = cluster.server.store.get(NAMESPACE, name)!.metadata!.annotations![HEARTBEAT_ANNOTATION]!;
      await until(
        'a renewed heartbeat',
        () =>
          cluster.server.store.get(NAMESPACE, name)!.metadata!.annotations![HEARTBEAT_ANNOTATION] !== first,
      );
      expect(cluster.server.requests).toContain(`PATCH /api/v1/namespaces/${NAMESPACE}/pods/${name}`);
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });

  it("sweep deletes pods whose owner stopped beating and leaves live owners' pods alone", async () => {
    // An interval far longer than the test: the owner renews nothing while the sweeper looks.
    const owner = cluster.context({ heartbeatIntervalMs: 60_000 });
    const sweeper = cluster.context();
    try {
      const abandoned = await owner.spawn();
      const kept = await sweeper.spawn();
      const abandonedName = owner.podName(abandoned);
      // The owner "crashed" ten minutes ago (three missed 60 s beats make a pod abandoned); close()
      // would delete the pod, so the test ages its last beat and gives it another owner id.
      cluster.server.store.update(NAMESPACE, abandonedName, (pod) => {
        pod.metadata!.annotations![HEARTBEAT_ANNOTATION] = new Date(Date.now() - 600_000).toISOString();
        pod.metadata!.labels!['berth.dev/owner'] = 'crashed-process';
      });
      const swept = await sweeper.sweep();
      expect(swept).toEqual([abandonedName]);
      await until(
        'the abandoned pod to go',
        () => cluster.server.store.get(NAMESPACE, abandonedName) === undefined,
      );
      expect(cluster.server.store.get(NAMESPACE, sweeper.podName(kept))).toBeDefined();
      expect((await sweeper.exec(kept, 'echo alive')).stdout).toBe('alive\n');
    } finally {
      await owner.close();
      await sweeper.close();
    }
  });

  it("destroy ends the handle's processes and deletes the pod; a failed spawn leaves nothing", async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn();
      const name = context.podName(handle);
      await context.execBackground!(handle, 'sleep 600');
      await context.destroy(handle);
      expect(cluster.server.store.get(NAMESPACE, name)).toBeUndefined();
      expect(cluster.server.containerOf(NAMESPACE, name)).toBeUndefined();
      await expect(context.exec(handle, 'true')).rejects.toMatchObject({ code: 'E_UNKNOWN_HANDLE' });
      await expect(context.spawn({ image: `${TEST_IMAGE}-missing` })).rejects.toMatchObject({
        code: 'E_POD_IMAGE_PULL',
      });
      await until('no pod left', () => cluster.server.store.list(NAMESPACE).length === 0);
    } finally {
      await context.close();
    }
  });
});
