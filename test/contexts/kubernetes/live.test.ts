/**
 * The conformance suite against a real cluster, when asked for with `BERTH_KUBERNETES_LIVE=1`
 * (it creates pods in the kubeconfig's namespace, found as kubectl finds it; an ambient
 * ~/.kube/config alone never starts it). `BERTH_KUBERNETES_IMAGE` names an image the cluster can
 * pull (default `busybox:1.36`), `BERTH_KUBERNETES_NAMESPACE` a namespace. Otherwise the suite is
 * reported as not run, with the reason: never a silent pass.
 */
import { describe, it } from 'vitest';
import { createKubernetesContext } from '../../../src/contexts/kubernetes/index.js';
import { runConformanceSuite } from '../../../src/testing/suite.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

if (process.env.BERTH_KUBERNETES_LIVE === '1') {
  runConformanceSuite({
    name: 'kubernetes (live cluster)',
    createContext: () =>
      createKubernetesContext({
        ...outputPolicy,
        image: process.env.BERTH_KUBERNETES_IMAGE ?? 'busybox:1.36',
        namespace: process.env.BERTH_KUBERNETES_NAMESPACE,
        startTimeoutMs: 300_000,
      }),
    disposeContext: (context) => (context as ReturnType<typeof createKubernetesContext>).close(),
    outputPolicy,
    spillLocation: 'host',
    // Pods may land on different nodes: nothing is shared between handles.
    handles: 'isolated',
    leftovers: 'kept-until-destroy',
    caseTimeoutMs: 180_000,
    expectedFailures: [
      // Each handle is its own pod, with its own filesystem (see docs/conformance.md).
      'background/reassign',
      // The suite's HTTP server listens on this machine; a pod on a cluster may not reach it.
      'network/reachable',
    ],
  });
} else {
  describe.skip('kubernetes (live cluster) conformance: not run, BERTH_KUBERNETES_LIVE is not 1', () => {
    it('runs the whole suite against pods of the kubeconfig’s cluster when BERTH_KUBERNETES_LIVE=1', () =>
      undefined);
  });
}
