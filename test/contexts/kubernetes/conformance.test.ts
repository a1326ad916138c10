/**
 * The conformance suite against the Kubernetes context, on the fake API server (pods are
 * containers of the local Docker engine; the real client library speaks to it over HTTPS and
 * WebSocket). Every handle is its own pod; the suite's cases share files between handles (a gate
 * file, a pid file), so all pods mount one directory of the node (hostPath) as their working
 * directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { runConformanceSuite } from '../../../src/testing/suite.js';
import { engine, type FakeCluster, startFakeCluster } from './fake-cluster.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

if (engine.available) {
  const cluster: FakeCluster = await startFakeCluster();
  const shared = mkdtempSync(join(tmpdir(), 'berth-k8s-conformance-'));
  runConformanceSuite({
    name: 'kubernetes',
    createContext: () => cluster.context(outputPolicy),
    disposeContext: async (context) => {
      await (context as ReturnType<FakeCluster['context']>).close();
      await cluster.close();
      rmSync(shared, { recursive: true, force: true });
    },
    spawnConfig: { cwd: '/shared', mounts: [{ source: shared, target: '/shared' }] },
    outputPolicy,
    spillLocation: 'host',
    // Pods (containers on the engine's default bridge) reach the host through its gateway.
    networkHost: '172.17.0.1',
    expectedFailures: [],
    // Each handle is a pod that outlives its commands' leftovers until destroy.
    leftovers: 'kept-until-destroy',
  });
} else {
  it.skip(`kubernetes conformance (skipped: ${engine.reason})`, () => undefined);
}
