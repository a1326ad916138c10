/**
 * A pod's life as berth drives it: create, wait until ready (bounded, with progress a spinner can
 * show, and with typed errors for the states that will not get better: image pull failures, a
 * container that cannot start, eviction), delete with a grace period and then by force, and the
 * sweep of pods whose owner is gone.
 * @module
 */
import type { V1Pod } from '@kubernetes/client-node';
import { PodEvictedError, PodGoneError, PodImagePullError, PodStartError } from './errors.js';
import { isAbandoned, MANAGED_LABEL } from './ownership.js';
import type { PodApi } from './pod-api.js';
import { CONTAINER_NAME } from './pod-spec.js';
import { waitForPod } from './pod-watch.js';

/** Where a starting pod is. */
export type PodStage = 'created' | 'scheduling' | 'unschedulable' | 'creating' | 'ready';

/** One progress report of `spawn`, for a spinner or a log. */
export interface PodProgress {
  readonly pod: string;
  readonly stage: PodStage;
  /** For people, e.g. `waiting for a node: 0/3 nodes are available: …`. */
  readonly message: string;
  readonly elapsedMs: number;
}

const PULL_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);
const CONFIG_FAILURES = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

/** The stage of a pod, and a settled verdict when it is ready or cannot become so. */
export function judgeStart(
  pod: V1Pod | null,
  name: string,
): { stage: PodStage; message: string; verdict?: { done: V1Pod } | { fail: Error } } {
  if (pod === null) {
    return {
      stage: 'created',
      message: 'deleted',
      verdict: { fail: new PodGoneError(name, 'deleted while starting') },
    };
  }
  const status = pod.status ?? {};
  if (status.phase === 'Failed') {
    if (status.reason === 'Evicted') {
      return {
        stage: 'creating',
        message: 'evicted',
        verdict: { fail: new PodEvictedError(name, status.message ?? '') },
      };
    }
    return {
      stage: 'creating',
      message: 'failed',
      verdict: {
        fail: new PodStartError(
          name,
          'pod-failed',
          `phase Failed${status.reason ? ` (${status.reason})` : ''}: ${status.message ?? 'no message'}`,
          'check the pod with `kubectl describe pod` before destroying it',
        ),
      },
    };
  }
  const container = status.containerStatuses?.find((item) => item.name === CONTAINER_NAME);
  const waiting = container?.state?.waiting;
  const terminated = container?.state?.terminated;
  if (waiting?.reason !== undefined && PULL_FAILURES.has(waiting.reason)) {
    const image = pod.spec?.containers?.[0]?.image ?? container?.image ?? '?';
    return {
      stage: 'creating',
      message: waiting.reason,
      verdict: { fail: new PodImagePullError(name, image, waiting.reason, waiting.message ?? '') },
    };
  }
  if (waiting?.reason !== undefined && CONFIG_FAILURES.has(waiting.reason)) {
    return {
      stage: 'creating',
      message: waiting.reason,
      verdict: {
        fail: new PodStartError(
          name,
          'config',
          `${waiting.reason}: ${waiting.message ?? 'no message'}`,
          'fix the pod template, the image, the user or the RuntimeClass named in spawn()',
        ),
      },
    };
  }
  if (terminated !== undefined || status.phase === 'Succeeded' || waiting?.reason === 'CrashLoopBackOff') {
    const detail = terminated
      ? `the container exited with ${terminated.exitCode}${terminated.reason ? ` (${terminated.reason})` : ''}${terminated.message ? `: ${terminated.message}` : ''}`
      : `the container ${waiting?.reason === 'CrashLoopBackOff' ? 'keeps crashing' : 'ended'}`;
    return {
      stage: 'creating',
      message: 'container ended',
      verdict: {
        fail: new PodStartError(
          name,
          'container-failed',
          detail,
          'the image needs /bin/sh and sleep for the keep-alive command (or set keepAliveCommand)',
        ),
      },
    };
  }
  const ready = status.conditions?.find((condition) => condition.type === 'Ready')?.status === 'True';
  if (status.phase === 'Running' && ready && container?.ready !== false) {
    return { stage: 'ready', message: 'ready', verdict: { done: pod } };
  }
  const scheduled = status.conditions?.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False') {
    return {
      stage: 'unschedulable',
      message: `waiting for a node: ${scheduled.message ?? scheduled.reason ?? 'unschedulable'}`,
    };
  }
  if (pod.spec?.nodeName === undefined) return { stage: 'scheduling', message: 'waiting for a node' };
  return {
    stage: 'creating',
    message: `on node ${pod.spec.nodeName}: ${waiting?.reason === 'ContainerCreating' || waiting === undefined ? 'pulling the image and starting the container' : waiting.reason}`,
  };
}

/**
 * Create the pod and wait until it is ready.
 * @throws PodImagePullError, PodStartError (also on timeout, with the last state seen),
 *   PodEvictedError, PodGoneError, and the API errors of the create and the watch. The caller
 *   deletes the pod when this throws after the create.
 */
export async function createReadyPod(
  api: PodApi,
  pod: V1Pod,
  startTimeoutMs: number,
  onProgress: ((progress: PodProgress) => void) | undefined,
  onCreated: (name: string) => void,
  signal?: AbortSignal,
): Promise<V1Pod> {
  const started = performance.now();
  const created = await api.createPod(pod, signal);
  const name = created.metadata?.name ?? pod.metadata?.name ?? '?';
  onCreated(name);
  let last = '';
  const report = (stage: PodStage, message: string) => {
    if (onProgress === undefined || `${stage} ${message}` === last) return;
    last = `${stage} ${message}`;
    try {
      onProgress({ pod: name, stage, message, elapsedMs: Math.round(performance.now() - started) });
    } catch {
      // A progress listener's bug must not break the spawn.
    }
  };
  report('created', 'created');
  let lastSeen = 'created, never seen since';
  const judge = (seen: V1Pod | null) => {
    const state = judgeStart(seen, name);
    lastSeen = state.message;
    report(state.stage, state.message);
    return state.verdict;
  };
  const immediate = judge(created);
  if (immediate !== undefined) {
    if ('fail' in immediate) throw immediate.fail;
    return immediate.done;
  }
  return waitForPod(
    api,
    name,
    created.metadata?.resourceVersion,
    judge,
    startTimeoutMs,
    () =>
      new PodStartError(
        name,
        'timeout',
        `not ready within startTimeoutMs=${startTimeoutMs}; last seen: ${lastSeen}`,
        'raise startTimeoutMs for slow image pulls or a scaling cluster, or look at `kubectl describe pod` for why',
      ),
    signal,
  );
}

/**
 * Delete the pod: with `graceMs` (rounded up to seconds), waiting for it to go; if it is still
 * there after the grace plus `settleMs`, by force (grace 0). Resolves once the API server no
 * longer has it (or, forced, once the force delete was accepted).
 */
export async function deletePod(
  api: PodApi,
  name: string,
  graceMs: number,
  settleMs = 10_000,
): Promise<void> {
  const graceSeconds = Math.ceil(graceMs / 1000);
  if (!(await api.deletePod(name, graceSeconds))) return;
  try {
    await waitForPod(
      api,
      name,
      undefined,
      (pod) => (pod === null ? { done: undefined } : undefined),
      graceSeconds * 1000 + settleMs,
      () => new Error('still there'),
    );
  } catch {
    await api.deletePod(name, 0);
  }
}

/**
 * Delete berth's pods in the namespace whose owner is gone (see `isAbandoned`); resolves with
 * their names. Pods already being deleted are left to finish.
 */
export async function sweepAbandoned(api: PodApi, graceMs: number): Promise<string[]> {
  const list = await api.listPods(`${MANAGED_LABEL}=true`);
  const now = Date.now();
  const abandoned = list.items.filter(
    (pod) =>
      pod.metadata?.deletionTimestamp === undefined &&
      isAbandoned(pod.metadata?.labels ?? {}, pod.metadata?.annotations ?? {}, now),
  );
  const names = abandoned.map((pod) => pod.metadata?.name ?? '').filter((name) => name !== '');
  await Promise.all(names.map((name) => api.deletePod(name, Math.ceil(graceMs / 1000))));
  return names;
}
