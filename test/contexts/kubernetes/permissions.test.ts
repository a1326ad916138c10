/**
 * `checkKubernetesAccess`: the server's version and, per permission the context needs, the
 * SelfSubjectAccessReview answer of the fake API server (which answers from the same RBAC
 * refusals its endpoints enforce). It creates nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  checkKubernetesAccess,
  InvalidArgumentError,
  REQUIRED_PERMISSIONS,
} from '../../../src/contexts/kubernetes/index.js';
import { describeFakeCluster, type FakeCluster, startFakeCluster } from './fake-cluster.js';

describeFakeCluster('kubernetes permissions check', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await startFakeCluster();
  });
  afterAll(async () => {
    await cluster.close();
  });

  it('reports the server and every required permission as granted, creating nothing', async () => {
    const access = await checkKubernetesAccess({ kubeconfig: cluster.kubeconfig });
    expect(access.serverVersion).toBe('v1.31.0-fake');
    expect(access.namespace).toBe('berth-test');
    expect(access.description).toContain(`file ${cluster.kubeconfig}`);
    expect(access.permissions.map((p) => `${p.permission.verb} ${p.permission.resource}`)).toEqual(
      REQUIRED_PERMISSIONS.map((p) => `${p.verb} ${p.resource}`),
    );
    expect(access.permissions.every((p) => p.allowed && p.reason.startsWith('RBAC: allowed'))).toBe(true);
    expect(cluster.server.requests.filter((r) => r.startsWith('POST /api/'))).toEqual([]);
  });

  it('names exactly the refused permissions, in the namespace asked about', async () => {
    cluster.server.deny('create', 'pods/exec');
    cluster.server.deny('watch', 'pods');
    try {
      const access = await checkKubernetesAccess({ kubeconfig: cluster.kubeconfig, namespace: 'other' });
      expect(access.namespace).toBe('other');
      expect(
        access.permissions
          .filter((p) => !p.allowed)
          .map((p) => `${p.permission.verb} ${p.permission.resource}`),
      ).toEqual(['watch pods', 'create pods/exec']);
    } finally {
      cluster.server.allowAll();
    }
  });

  it('refuses an unknown option with a did-you-mean, before reaching anything', async () => {
    await expect(checkKubernetesAccess({ namspace: 'x' } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(checkKubernetesAccess({ namspace: 'x' } as never)).rejects.toThrow(/namespace/);
  });
});
