/**
 * Options of `createKubernetesContext`, validated once into a complete, default-filled form.
 * Unknown names are refused with the option meant (`namespce` → `namespace`).
 * @module
 */

import type { ContextLimitOptions } from '../../contract/context-options.js';
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_OUTPUT_POLICY,
  DEFAULT_STALL_MS,
  DEFAULT_TIMEOUT_MS,
} from '../../contract/defaults.js';
import type { OutputPolicy } from '../../contract/types.js';
import {
  argvArray,
  byteCount,
  callback,
  describeValue,
  durationMs,
  knownOptions,
  optionalString,
  optionKeys,
  outputPolicy,
  pathOption,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { PodProgress } from './pod-lifecycle.js';
import { KEEP_ALIVE_COMMAND, type KubernetesPodTemplate, validateTemplate, validKey } from './pod-spec.js';

/**
 * Options of {@link createKubernetesContext}. Every field is optional; the limits every backend
 * shares (`defaultTimeoutMs`, `killGraceMs`, `stallMs`, `maxLogBytes`, `maxReadBytes`) are
 * documented on {@link ContextLimitOptions}. The log of a background task lives inside the pod.
 */
export interface KubernetesContextOptions extends ContextLimitOptions {
  /** A kubeconfig file (as `kubectl --kubeconfig`); default `KUBECONFIG`, `~/.kube/config`, in-cluster. */
  readonly kubeconfig?: string | undefined;
  /** A context of the kubeconfig (as `kubectl --context`); default its current context. */
  readonly context?: string | undefined;
  /** Namespace of the pods; default the kubeconfig context's, else the service account's, else `default`. */
  readonly namespace?: string | undefined;
  /** Image used when `spawn` names none. */
  readonly image?: string | undefined;
  /** Service account of every pod (a spawn can name another). */
  readonly serviceAccountName?: string | undefined;
  /** Node selector of every pod (a spawn's entries are merged over it). */
  readonly nodeSelector?: Readonly<Record<string, string>> | undefined;
  /** RuntimeClass of every pod, e.g. `gvisor` (a spawn's `runtime` wins). */
  readonly runtimeClassName?: string | undefined;
  /** Pod fields berth does not build itself (tolerations, volumes, imagePullSecrets, …). */
  readonly podTemplate?: KubernetesPodTemplate | undefined;
  /** PID 1 of the pod; default a shell that sleeps, reaps orphans and ends at once on TERM. */
  readonly keepAliveCommand?: readonly string[] | undefined;
  /** How long `spawn` waits for the pod to be ready (scheduling, image pull, start); default 300000. */
  readonly startTimeoutMs?: number | undefined;
  /** Hears how a starting pod gets on (for a spinner or a log). */
  readonly onProgress?: ((progress: PodProgress) => void) | undefined;
  /** Grace of the pod's deletion before berth deletes it by force; default 5000. */
  readonly deleteGraceMs?: number | undefined;
  /** How often berth renews each live pod's heartbeat annotation; default 30000. */
  readonly heartbeatIntervalMs?: number | undefined;
  /** Deadline for one API request's answer (and an exec's WebSocket upgrade); default 30000. */
  readonly requestTimeoutMs?: number | undefined;
  /** How long `destroy` waits for TERM'd background tasks before KILL; default 5000. */
  readonly destroyGraceMs?: number | undefined;
  /** Bytes of each stream kept in memory as head + tail; default 1 MiB. */
  readonly maxOutputBytes?: number | undefined;
  /** Bytes of each stream spilled to a 0600 file on the host; 0 disables; default 64 MiB. */
  readonly maxSpillBytes?: number | undefined;
  /** Most entries one `listFiles` returns; default 100000. */
  readonly maxEntries?: number | undefined;
}

/** Options after validation. */
export interface ResolvedKubernetesOptions {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly namespace: string | undefined;
  readonly image: string | undefined;
  readonly serviceAccountName: string | undefined;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly runtimeClassName: string | undefined;
  readonly podTemplate: KubernetesPodTemplate;
  readonly keepAliveCommand: readonly string[];
  readonly startTimeoutMs: number;
  readonly onProgress: ((progress: PodProgress) => void) | undefined;
  readonly deleteGraceMs: number;
  readonly heartbeatIntervalMs: number;
  readonly requestTimeoutMs: number;
  readonly defaultTimeoutMs: number;
  readonly killGraceMs: number;
  readonly destroyGraceMs: number;
  readonly policy: OutputPolicy;
  readonly stallMs: number;
  readonly maxLogBytes: number;
  readonly maxReadBytes: number;
  readonly maxEntries: number;
}

/** Every option {@link createKubernetesContext} accepts. */
export const KUBERNETES_OPTION_KEYS = optionKeys<KubernetesContextOptions>({
  kubeconfig: true,
  context: true,
  namespace: true,
  image: true,
  serviceAccountName: true,
  nodeSelector: true,
  runtimeClassName: true,
  podTemplate: true,
  keepAliveCommand: true,
  startTimeoutMs: true,
  onProgress: true,
  deleteGraceMs: true,
  heartbeatIntervalMs: true,
  requestTimeoutMs: true,
  defaultTimeoutMs: true,
  killGraceMs: true,
  destroyGraceMs: true,
  maxOutputBytes: true,
  maxSpillBytes: true,
  stallMs: true,
  maxLogBytes: true,
  maxReadBytes: true,
  maxEntries: true,
});

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function namespaceOption(value: unknown): string | undefined {
  const namespace = optionalString(value, 'namespace');
  if (namespace !== undefined && !DNS_LABEL.test(namespace)) {
    throw new InvalidArgumentError(
      'namespace',
      `must be a DNS label (lower-case letters, digits and "-", at most 63), got ${describeValue(namespace)}`,
    );
  }
  return namespace;
}

function selectorOption(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(
      'nodeSelector',
      `must be an object of label → value, got ${describeValue(value)}`,
    );
  }
  for (const [key, entry] of Object.entries(value)) {
    if (!validKey(key)) throw new InvalidArgumentError(`nodeSelector.${key}`, 'is not a valid label key');
    if (typeof entry !== 'string') {
      throw new InvalidArgumentError(`nodeSelector.${key}`, `must be a string, got ${describeValue(entry)}`);
    }
  }
  return { ...(value as Record<string, string>) };
}

/**
 * @param known - the options this entry point takes (`sweepKubernetesPods` takes fewer).
 * @throws InvalidArgumentError naming the first bad field, or an unknown one with a did-you-mean.
 */
export function resolveKubernetesOptions(
  options: KubernetesContextOptions | undefined,
  known: readonly (keyof KubernetesContextOptions)[] = KUBERNETES_OPTION_KEYS,
  owner = 'createKubernetesContext',
): ResolvedKubernetesOptions {
  const input = knownOptions(options, 'options', known, owner);
  return {
    kubeconfig: pathOption(input.kubeconfig, 'kubeconfig', false),
    context: optionalString(input.context, 'context'),
    namespace: namespaceOption(input.namespace),
    image: optionalString(input.image, 'image'),
    serviceAccountName: optionalString(input.serviceAccountName, 'serviceAccountName'),
    nodeSelector: selectorOption(input.nodeSelector),
    runtimeClassName: optionalString(input.runtimeClassName, 'runtimeClassName'),
    podTemplate: validateTemplate(input.podTemplate, 'podTemplate'),
    keepAliveCommand:
      input.keepAliveCommand === undefined
        ? KEEP_ALIVE_COMMAND
        : [...argvArray(input.keepAliveCommand, 'keepAliveCommand')],
    startTimeoutMs: durationMs(input.startTimeoutMs, 'startTimeoutMs', 300_000),
    onProgress: callback(input.onProgress, 'onProgress'),
    deleteGraceMs: durationMs(input.deleteGraceMs, 'deleteGraceMs', 5000, true),
    heartbeatIntervalMs: durationMs(input.heartbeatIntervalMs, 'heartbeatIntervalMs', 30_000),
    requestTimeoutMs: durationMs(input.requestTimeoutMs, 'requestTimeoutMs', 30_000),
    defaultTimeoutMs: durationMs(input.defaultTimeoutMs, 'defaultTimeoutMs', DEFAULT_TIMEOUT_MS),
    killGraceMs: durationMs(input.killGraceMs, 'killGraceMs', DEFAULT_KILL_GRACE_MS, true),
    destroyGraceMs: durationMs(input.destroyGraceMs, 'destroyGraceMs', DEFAULT_KILL_GRACE_MS, true),
    policy: outputPolicy(
      { maxOutputBytes: input.maxOutputBytes, maxSpillBytes: input.maxSpillBytes },
      'options',
      DEFAULT_OUTPUT_POLICY,
    ),
    stallMs: durationMs(input.stallMs, 'stallMs', DEFAULT_STALL_MS),
    maxLogBytes: byteCount(input.maxLogBytes, 'maxLogBytes', DEFAULT_MAX_LOG_BYTES),
    maxReadBytes: byteCount(input.maxReadBytes, 'maxReadBytes', 256 * 1024 * 1024),
    maxEntries: byteCount(input.maxEntries, 'maxEntries', 100_000),
  };
}
