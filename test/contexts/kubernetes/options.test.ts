/**
 * Bad input to the Kubernetes context is refused before anything reaches a cluster: unknown
 * option names with a did-you-mean, malformed values naming the field, contract fields a pod
 * cannot honour. And the pod berth builds from good input, field by field.
 */

import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { resolveKubernetesOptions } from '../../../src/contexts/kubernetes/context-options.js';
import { InvalidArgumentError } from '../../../src/contexts/kubernetes/index.js';
import {
  HANDLE_LABEL,
  HEARTBEAT_ANNOTATION,
  HEARTBEAT_INTERVAL_ANNOTATION,
  isAbandoned,
  MANAGED_LABEL,
  OWNER_HOST_ANNOTATION,
  OWNER_ID,
  OWNER_LABEL,
  OWNER_PID_ANNOTATION,
} from '../../../src/contexts/kubernetes/ownership.js';
import {
  KEEP_ALIVE_COMMAND,
  type KubernetesSpawnConfig,
  type PodDefaults,
  planPod,
} from '../../../src/contexts/kubernetes/pod-spec.js';

const defaults: PodDefaults = {
  image: 'busybox:1.36',
  serviceAccountName: undefined,
  nodeSelector: {},
  runtimeClassName: undefined,
  template: {},
  keepAliveCommand: KEEP_ALIVE_COMMAND,
  heartbeatIntervalMs: 30_000,
};

function refusal(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

const plan = (config: KubernetesSpawnConfig, extra: Partial<PodDefaults> = {}) =>
  planPod(config, 'k8s-abc', 'berth-abc', { ...defaults, ...extra }).pod;

describe('createKubernetesContext options', () => {
  it('an unknown option is refused with the option meant', () => {
    const error = refusal(() => resolveKubernetesOptions({ namespce: 'x' } as never));
    expect(error.field).toBe('options.namespce');
    expect(error.message).toContain('did you mean "namespace"?');
    expect(refusal(() => resolveKubernetesOptions({ kubeConfig: '/x' } as never)).message).toContain(
      'did you mean "kubeconfig"?',
    );
  });

  it('malformed values name their field', () => {
    expect(refusal(() => resolveKubernetesOptions({ namespace: 'Not_A_Label' })).field).toBe('namespace');
    expect(refusal(() => resolveKubernetesOptions({ startTimeoutMs: -1 })).field).toBe('startTimeoutMs');
    expect(refusal(() => resolveKubernetesOptions({ kubeconfig: 'a\0b' })).field).toBe('kubeconfig');
    expect(refusal(() => resolveKubernetesOptions({ nodeSelector: { 'bad key!': 'x' } })).field).toBe(
      'nodeSelector.bad key!',
    );
    expect(refusal(() => resolveKubernetesOptions({ keepAliveCommand: [] })).field).toBe('keepAliveCommand');
    expect(refusal(() => resolveKubernetesOptions({ onProgress: 'yes' as never })).field).toBe('onProgress');
  });

  it('a pod template may not set what berth builds, and its keys are checked', () => {
    expect(refusal(() => resolveKubernetesOptions({ podTemplate: { spec: { containers: [] } } })).field).toBe(
      'podTemplate.spec.containers',
    );
    expect(
      refusal(() => resolveKubernetesOptions({ podTemplate: { container: { securityContext: {} } } }))
        .message,
    ).toContain('hardening');
    expect(
      refusal(() => resolveKubernetesOptions({ podTemplate: { metdata: {} } as never })).message,
    ).toContain('did you mean "metadata"?');
    expect(
      refusal(() =>
        resolveKubernetesOptions({ podTemplate: { metadata: { labels: { 'berth.dev/x': 'y' } } } }),
      ).message,
    ).toContain('reserved');
  });
});

describe('spawn config on the kubernetes context', () => {
  it('a misspelt key, or a hardening measure misspelt, fails the spawn instead of starting an unhardened pod', () => {
    expect(refusal(() => plan({ imagee: 'x' } as never)).message).toContain('did you mean "image"?');
    expect(refusal(() => plan({ hardening: { readOnlyRootFilesystem: true } as never })).message).toContain(
      'did you mean "readOnlyRootfs"?',
    );
  });

  it('fields a pod cannot honour are refused with what to do instead', () => {
    expect(refusal(() => plan({ network: 'none' })).message).toContain('NetworkPolicy');
    expect(refusal(() => plan({ ports: [{ container: 80 }] })).message).toContain('port-forward');
    expect(refusal(() => plan({ resources: { pids: 10 } })).message).toContain('podPidsLimit');
    expect(refusal(() => plan({ user: 'node' })).message).toContain('uid');
    expect(refusal(() => plan({ labels: { 'berth.dev/handle': 'x' } })).message).toContain('reserved');
    expect(refusal(() => plan({ labels: { app: 'not a value' } })).field).toBe('labels.app');
    expect(refusal(() => plan({ cwd: 'relative' })).field).toBe('cwd');
    expect(refusal(() => plan({}, { image: undefined })).field).toBe('image');
  });

  it('builds one container with the keep-alive command, the env, the cwd and the resources as requests and limits', () => {
    const pod = plan({
      cwd: '/work',
      env: { A: '1', B: 'two words' },
      resources: { memoryBytes: 256 * 1024 * 1024, cpus: 0.5 },
      user: '1000:2000',
      runtime: 'gvisor',
      serviceAccountName: 'agent',
      nodeSelector: { pool: 'sandboxes' },
      mounts: [{ source: '/srv/data', target: '/data', readOnly: true }],
    });
    const container = pod.spec!.containers[0]!;
    expect(container.command).toEqual([...KEEP_ALIVE_COMMAND]);
    expect(container.workingDir).toBe('/work');
    expect(container.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two words' },
    ]);
    expect(container.resources).toEqual({
      requests: { memory: '268435456', cpu: '500m' },
      limits: { memory: '268435456', cpu: '500m' },
    });
    expect(pod.spec!.securityContext).toEqual({ runAsUser: 1000, runAsGroup: 2000 });
    expect(pod.spec!.runtimeClassName).toBe('gvisor');
    expect(pod.spec!.serviceAccountName).toBe('agent');
    expect(pod.spec!.nodeSelector).toEqual({ pool: 'sandboxes' });
    expect(pod.spec!.restartPolicy).toBe('Never');
    expect(pod.spec!.volumes).toEqual([
      { name: 'berth-mount-0', hostPath: { path: '/srv/data', type: 'Directory' } },
    ]);
    expect(container.volumeMounts).toEqual([{ name: 'berth-mount-0', mountPath: '/data', readOnly: true }]);
  });

  it("marks the pod as berth's: ownership labels and a heartbeat annotation", () => {
    const pod = plan({ labels: { team: 'a' }, annotations: { note: 'free text is fine here' } });
    expect(pod.metadata!.labels).toEqual({
      team: 'a',
      [MANAGED_LABEL]: 'true',
      [HANDLE_LABEL]: 'k8s-abc',
      [OWNER_LABEL]: OWNER_ID,
    });
    const annotations = pod.metadata!.annotations!;
    expect(annotations.note).toBe('free text is fine here');
    expect(annotations[OWNER_HOST_ANNOTATION]).toBe(hostname());
    expect(annotations[OWNER_PID_ANNOTATION]).toBe(String(process.pid));
    expect(Date.now() - Date.parse(annotations[HEARTBEAT_ANNOTATION]!)).toBeLessThan(60_000);
    expect(annotations[HEARTBEAT_INTERVAL_ANNOTATION]).toBe('30000');
  });

  it('hardening "recommended": no capabilities, no escalation, read-only root with writable cwd and /tmp, no API token', () => {
    const pod = plan({ hardening: 'recommended' });
    const container = pod.spec!.containers[0]!;
    expect(container.securityContext).toEqual({
      capabilities: { drop: ['ALL'] },
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
    });
    expect(pod.spec!.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.spec!.automountServiceAccountToken).toBe(false);
    expect(pod.spec!.enableServiceLinks).toBe(false);
    expect(container.workingDir).toBe('/workspace');
    expect(container.volumeMounts!.map((mount) => mount.mountPath)).toEqual(['/tmp', '/workspace']);
    expect(pod.spec!.volumes!.every((volume) => volume.emptyDir !== undefined)).toBe(true);
  });

  it('a mount that covers the working directory replaces its scratch volume', () => {
    const pod = plan({ hardening: 'recommended', cwd: '/w', mounts: [{ source: '/srv', target: '/w' }] });
    expect(pod.spec!.containers[0]!.volumeMounts!.map((mount) => mount.mountPath)).toEqual(['/w', '/tmp']);
  });

  it("the template goes underneath: its spec fields and container fields are kept, berth's win", () => {
    const pod = plan(
      {},
      {
        template: {
          metadata: { labels: { tier: 'agents' } },
          spec: { tolerations: [{ key: 'sandbox', operator: 'Exists' }], priorityClassName: 'low' },
          container: { imagePullPolicy: 'IfNotPresent' },
        },
      },
    );
    expect(pod.metadata!.labels!.tier).toBe('agents');
    expect(pod.spec!.tolerations).toEqual([{ key: 'sandbox', operator: 'Exists' }]);
    expect(pod.spec!.priorityClassName).toBe('low');
    expect(pod.spec!.containers[0]!.imagePullPolicy).toBe('IfNotPresent');
    expect(pod.spec!.containers[0]!.name).toBe('berth');
  });
});

describe('ownership', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  const labels = { [MANAGED_LABEL]: 'true', [OWNER_LABEL]: 'someone-else' };
  const beat = (ageMs: number) => ({
    [OWNER_HOST_ANNOTATION]: 'another-host',
    [OWNER_PID_ANNOTATION]: '1',
    [HEARTBEAT_ANNOTATION]: new Date(now - ageMs).toISOString(),
    [HEARTBEAT_INTERVAL_ANNOTATION]: '10000',
  });

  it('a pod is abandoned once three heartbeats were missed, not before', () => {
    expect(isAbandoned(labels, beat(29_000), now)).toBe(false);
    expect(isAbandoned(labels, beat(31_000), now)).toBe(true);
  });

  it("on this host, a dead owner pid makes it abandoned at once; this process's pods never are", () => {
    const dead = { ...beat(0), [OWNER_HOST_ANNOTATION]: hostname(), [OWNER_PID_ANNOTATION]: '2147483646' };
    expect(isAbandoned(labels, dead, now)).toBe(true);
    expect(isAbandoned({ ...labels, [OWNER_LABEL]: OWNER_ID }, beat(1e9), now)).toBe(false);
    expect(isAbandoned({ [OWNER_LABEL]: 'x' }, beat(1e9), now)).toBe(false);
  });

  it('a berth pod without a readable heartbeat counts as stale', () => {
    expect(isAbandoned(labels, {}, now)).toBe(true);
  });
});
