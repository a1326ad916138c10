/**
 * Test set-up for the Kubernetes context: a fake API server (backed by the local Docker engine)
 * and a kubeconfig file pointing at it, so the context resolves its configuration the way it does
 * against a real cluster. Without an engine, a CI run fails loudly; a developer machine skips.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import {
  createKubernetesContext,
  type KubernetesContext,
  type KubernetesContextOptions,
} from '../../../src/contexts/kubernetes/index.js';
import { engine } from '../docker/docker-engine.js';
import { fakeContainers, removeContainer } from './fake-apiserver/docker-backend.js';
import { FakeApiServer, type FakeOptions } from './fake-apiserver/server.js';

export { engine };
export const TEST_IMAGE = 'berth-test:busybox';
export const TOKEN = 'berth-test-token';

/** A running fake cluster: the server, a kubeconfig for it, and a directory to clean up. */
export interface FakeCluster {
  readonly server: FakeApiServer;
  readonly kubeconfig: string;
  readonly dir: string;
  /** A context on this cluster with test-sized timeouts. */
  context(options?: KubernetesContextOptions): KubernetesContext;
  close(): Promise<void>;
}

/** A kubeconfig (YAML) for `server` with a bearer token, trusting the CA file `ca`. */
export function kubeconfigYaml(server: string, ca: string, token = TOKEN, namespace = 'berth-test'): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: ${server}
    certificate-authority: ${ca}
users:
- name: tester
  user:
    token: ${token}
contexts:
- name: fake
  context:
    cluster: fake
    user: tester
    namespace: ${namespace}
current-context: fake
`;
}

/** A self-signed certificate for 127.0.0.1 (the API server's; the kubeconfig trusts it as its CA). */
function selfSigned(dir: string): { key: string; cert: string; certPath: string } {
  const keyPath = join(dir, 'server.key');
  const certPath = join(dir, 'server.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=fake-apiserver',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
}

export async function startFakeCluster(options: FakeOptions = {}): Promise<FakeCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-k8s-test-'));
  const tls = selfSigned(dir);
  const server = new FakeApiServer({ token: TOKEN, tls, ...options });
  await server.start();
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(server.url, tls.certPath));
  return {
    server,
    kubeconfig,
    dir,
    context: (extra = {}) =>
      createKubernetesContext({
        kubeconfig,
        image: TEST_IMAGE,
        killGraceMs: 1000,
        destroyGraceMs: 1000,
        deleteGraceMs: 1000,
        startTimeoutMs: 60_000,
        ...extra,
      }),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `describe` that runs only with a Docker engine, and checks no fake pod container was left. */
export function describeFakeCluster(name: string, body: () => void): void {
  describe.skipIf(!engine.available)(name, () => {
    afterAll(async () => {
      const left = await fakeContainers();
      await Promise.all(left.map((id) => removeContainer(id)));
      expect(left).toEqual([]);
    });
    body();
  });
}
