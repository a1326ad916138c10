/**
 * Faults through the fake API server: RBAC refusals (naming the verb and resource missing), a
 * quota, an image that cannot be pulled, eviction mid-command, a pod deleted behind berth's back,
 * bad credentials, an API server that is absent or hung (every call settles by its deadline), and
 * an older server that speaks only v4 of the exec protocol.
 */

import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKubernetesContext,
  KubernetesApiError,
  KubernetesForbiddenError,
  KubernetesQuotaError,
  KubernetesUnavailableError,
  PodEvictedError,
  PodGoneError,
  PodImagePullError,
  PodStartError,
} from '../../../src/contexts/kubernetes/index.js';
import { CapabilityError } from '../../../src/errors/index.js';
import { waitUntil } from '../../../src/testing/wait-until.js';
import {
  describeFakeCluster,
  type FakeCluster,
  kubeconfigYaml,
  startFakeCluster,
  TEST_IMAGE,
} from './fake-cluster.js';

const NAMESPACE = 'berth-test';

/** Resolves once `check` holds (polled), or fails naming `what`. */
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

describeFakeCluster('kubernetes faults', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await startFakeCluster();
  });
  afterAll(async () => {
    await cluster.close();
  });
  const pods = () => cluster.server.store.list(NAMESPACE);

  it('RBAC: no create on pods is a KubernetesForbiddenError naming the verb, the resource and the namespace', async () => {
    cluster.server.deny('create', 'pods');
    const context = cluster.context();
    try {
      const error = await context.spawn().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(KubernetesForbiddenError);
      const forbidden = error as KubernetesForbiddenError;
      expect(forbidden.code).toBe('E_KUBERNETES_FORBIDDEN');
      expect([forbidden.verb, forbidden.resource, forbidden.namespace]).toEqual([
        'create',
        'pods',
        NAMESPACE,
      ]);
      expect(forbidden.message).toContain('docs/kubernetes.md');
      expect(forbidden.message).toContain('kubectl auth can-i create pods -n berth-test');
      expect(pods()).toEqual([]);
    } finally {
      cluster.server.allowAll();
      await context.close();
    }
  });

  it('RBAC: no create on pods/exec fails the spawn naming pods/exec, and deletes the pod it made', async () => {
    cluster.server.deny('create', 'pods/exec');
    const context = cluster.context();
    try {
      const error = (await context.spawn().catch((caught: unknown) => caught)) as KubernetesForbiddenError;
      expect(error).toBeInstanceOf(KubernetesForbiddenError);
      expect([error.verb, error.resource]).toEqual(['create', 'pods/exec']);
      await until('the pod to be deleted', () => pods().length === 0);
    } finally {
      cluster.server.allowAll();
      await context.close();
    }
  });

  it('a ResourceQuota that is full is a KubernetesQuotaError with the server message', async () => {
    cluster.server.setPodQuota(0);
    const context = cluster.context();
    try {
      const error = (await context.spawn().catch((caught: unknown) => caught)) as KubernetesQuotaError;
      expect(error).toBeInstanceOf(KubernetesQuotaError);
      expect(error.code).toBe('E_KUBERNETES_QUOTA');
      expect(error.serverMessage).toContain('exceeded quota: pod-count');
      expect(error.message).toContain('kubectl describe resourcequota -n berth-test');
    } finally {
      cluster.server.setPodQuota(undefined);
      await context.close();
    }
  });

  it('an image that cannot be pulled is a PodImagePullError naming it; the pod is deleted', async () => {
    const context = cluster.context();
    try {
      const image = 'berth-test:no-such-tag';
      const error = (await context.spawn({ image }).catch((caught: unknown) => caught)) as PodImagePullError;
      expect(error).toBeInstanceOf(PodImagePullError);
      expect(error.image).toBe(image);
      expect(['ErrImagePull', 'ImagePullBackOff']).toContain(error.reason);
      expect(error.message).toContain('imagePullSecrets');
      await until('the pod to be deleted', () => pods().length === 0);
    } finally {
      await context.close();
    }
  });

  it("a pod no node can take times out with the scheduler's reason, within startTimeoutMs", async () => {
    const stages: string[] = [];
    const context = cluster.context({
      startTimeoutMs: 1500,
      onProgress: (progress) => stages.push(progress.stage),
    });
    try {
      const error = (await context
        .spawn({ nodeSelector: { disk: 'ssd' } })
        .catch((caught: unknown) => caught)) as PodStartError;
      expect(error).toBeInstanceOf(PodStartError);
      expect(error.failure).toBe('timeout');
      expect(error.message).toContain("didn't match Pod's node affinity/selector");
      expect(stages).toContain('unschedulable');
      expect(stages).not.toContain('ready');
      await until('the pod to be deleted', () => pods().length === 0);
    } finally {
      await context.close();
    }
  });

  it('eviction mid-command fails the exec with PodEvictedError, and later calls too', async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn();
      // The rejection is caught at once: it can come while the fault is still being injected.
      const running = context
        .exec(handle, 'echo started > /tmp/started; sleep 30', { timeoutMs: 60_000 })
        .catch((caught: unknown) => caught);
      await until(
        'the command to start',
        async () => (await context.fileSize(handle, '/tmp/started')) !== null,
      );
      await cluster.server.evict(NAMESPACE, context.podName(handle));
      const error = await running;
      expect(error).toBeInstanceOf(PodEvictedError);
      expect((error as PodEvictedError).message).toContain('The node was low on resource: memory.');
      await expect(context.exec(handle, 'true')).rejects.toBeInstanceOf(PodEvictedError);
      await context.destroy(handle);
      await until('the pod to be deleted', () => pods().length === 0);
    } finally {
      await context.close();
    }
  });

  it("a pod deleted behind berth's back fails a running command with PodGoneError", async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn();
      // The rejection is caught at once: it can come while the fault is still being injected.
      const running = context
        .exec(handle, 'echo started > /tmp/started; sleep 30', { timeoutMs: 60_000 })
        .catch((caught: unknown) => caught);
      await until(
        'the command to start',
        async () => (await context.fileSize(handle, '/tmp/started')) !== null,
      );
      // Deleted by another client, as `kubectl delete pod --force` does (grace 0: the container goes at once).
      await fetchDelete(cluster, context.podName(handle));
      const error = await running;
      expect(error).toBeInstanceOf(PodGoneError);
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });

  it('credentials the server refuses are a KubernetesApiError (401) that says to refresh them', async () => {
    const kubeconfig = join(cluster.dir, 'wrong-token');
    writeFileSync(
      kubeconfig,
      kubeconfigYaml(cluster.server.url, join(cluster.dir, 'server.crt'), 'not-the-token'),
    );
    const context = createKubernetesContext({ kubeconfig, image: TEST_IMAGE });
    try {
      const error = (await context.spawn().catch((caught: unknown) => caught)) as KubernetesApiError;
      expect(error).toBeInstanceOf(KubernetesApiError);
      expect(error.statusCode).toBe(401);
      expect(error.message).toContain('refresh');
    } finally {
      await context.close();
    }
  });

  it('an API server that is not there is a KubernetesUnavailableError naming the server', async () => {
    const port = await freePort();
    const kubeconfig = join(cluster.dir, 'nowhere');
    writeFileSync(kubeconfig, kubeconfigYaml(`https://127.0.0.1:${port}`, join(cluster.dir, 'server.crt')));
    const context = createKubernetesContext({ kubeconfig, image: TEST_IMAGE });
    try {
      const error = (await context.spawn().catch((caught: unknown) => caught)) as KubernetesUnavailableError;
      expect(error).toBeInstanceOf(KubernetesUnavailableError);
      expect(error.server).toBe(`https://127.0.0.1:${port}`);
      expect(error.message).toContain('ECONNREFUSED');
    } finally {
      await context.close();
    }
  });

  it('a hung API server: spawn, exec, file calls and destroy each settle by their deadline', async () => {
    const context = cluster.context({ requestTimeoutMs: 700, deleteGraceMs: 0 });
    const handle = await context.spawn();
    cluster.server.setHung(true);
    try {
      const settled = async (what: string, call: Promise<unknown>) => {
        const started = Date.now();
        const error = await call.then(
          () => new Error(`${what} succeeded against a hung server`),
          (caught: unknown) => caught,
        );
        expect(error, what).toBeInstanceOf(KubernetesUnavailableError);
        // "Did not hang": far above the 700 ms deadline, far below any real hang.
        expect(Date.now() - started, what).toBeLessThan(15_000);
      };
      await settled('spawn', context.spawn());
      await settled('exec', context.exec(handle, 'true'));
      await settled('readFile', context.readFile(handle, '/etc/hostname'));
      await settled('writeFile', context.writeFile(handle, '/tmp/x', 'x'));
      await settled('destroy', context.destroy(handle));
    } finally {
      cluster.server.setHung(false);
      await context.close();
    }
  });
});

describeFakeCluster('kubernetes on a server that speaks only v4 of the exec protocol', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await startFakeCluster({ protocols: ['v4.channel.k8s.io'] });
  });
  afterAll(async () => {
    await cluster.close();
  });

  it('falls back to v4: stdin still reaches the command whole, files round-trip, exit codes arrive', async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn();
      expect(new Set(cluster.server.negotiated)).toEqual(new Set(['v4.channel.k8s.io']));
      const input = Buffer.from(Array.from({ length: 70_000 }, (_, index) => index % 251));
      const echoed = await context.exec(handle, 'cat | wc -c; exit 7', { stdin: input });
      expect(echoed.stdout.trim()).toBe('70000');
      expect(echoed.exitCode).toBe(7);
      await context.writeFile(handle, '/tmp/v4.bin', input);
      expect(Buffer.from(await context.readFileBytes!(handle, '/tmp/v4.bin')).equals(input)).toBe(true);
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });

  it("on v4 a background task's stdin takes writes, and close: true is a CapabilityError that writes nothing", async () => {
    const context = cluster.context();
    try {
      const handle = await context.spawn();
      const task = await context.execBackground!(handle, 'cat', { stdin: 'pipe' });
      await context.writeBackground!(handle, task.id, 'one\n');
      await waitUntil(
        'the first write in the log',
        async () => (await context.readFile(handle, task.outputPath)) === 'one\n',
      );
      const refused = await context.writeBackground!(handle, task.id, 'two\n', { close: true }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(CapabilityError);
      expect((refused as CapabilityError).message).toContain('v5.channel.k8s.io');
      // Nothing of the refused call went out, and the stdin is still open.
      await context.writeBackground!(handle, task.id, 'three\n');
      await waitUntil(
        'the third write after the first',
        async () => (await context.readFile(handle, task.outputPath)) === 'one\nthree\n',
      );
      expect((await context.listBackground!(handle))[0]?.stdin).toBe('open');
      await context.killBackground!(handle, task.id);
      await context.destroy(handle);
    } finally {
      await context.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** DELETE the pod with grace 0, as `kubectl delete pod --force` would. */
async function fetchDelete(cluster: FakeCluster, pod: string): Promise<void> {
  const { request } = await import('node:https');
  const { readFileSync } = await import('node:fs');
  const ca = readFileSync(join(cluster.dir, 'server.crt'));
  const url = new URL(
    `${cluster.server.url}/api/v1/namespaces/${NAMESPACE}/pods/${pod}?gracePeriodSeconds=0`,
  );
  await new Promise<void>((resolve, reject) => {
    const req = request(
      url,
      { method: 'DELETE', ca, headers: { Authorization: 'Bearer berth-test-token' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('kubernetes faults without a cluster', () => {
  it('a context is created without loading anything, and fails only when used', async () => {
    const context = createKubernetesContext({ kubeconfig: '/nonexistent/kubeconfig' });
    await expect(context.spawn({ image: TEST_IMAGE })).rejects.toMatchObject({ code: 'E_KUBECONFIG' });
    await context.close();
  });
});
