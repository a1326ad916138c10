/**
 * Turns a `SpawnConfig` (and the context's pod settings) into the pod berth creates, validating
 * every field first so a bad option fails with an `InvalidArgumentError` naming it, before the API
 * server is asked anything. The pod: one container (`berth`) running a reaping keep-alive shell,
 * berth's ownership labels and heartbeat annotation, the caller's template merged underneath.
 * @module
 */
import type { V1Container, V1Pod, V1PodSpec, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { HARDENING_KEYS, MOUNT_KEYS, RESOURCE_KEYS, SPAWN_CONFIG_KEYS } from '../../contract/option-keys.js';
import type { SpawnConfig } from '../../contract/types.js';
import { describeValue, knownOptions, optionKeys } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { envList } from '../docker/container-spec.js';
import { ownershipAnnotations, ownershipLabels, RESERVED_PREFIX } from './ownership.js';

/** Directory inside the pod where berth keeps background logs. */
export const STATE_DIR = '/tmp/.berth';

/** The one container of a berth pod. */
export const CONTAINER_NAME = 'berth';

/**
 * PID 1 of the pod: a shell that ends at once on TERM (so a graceful delete is quick) and reaps
 * the orphans a killed command leaves (Kubernetes has no init option like Docker's).
 */
export const KEEP_ALIVE_COMMAND: readonly string[] = Object.freeze([
  '/bin/sh',
  '-c',
  'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done',
]);

/** Working directory of a recommended pod when the config names none. */
export const RECOMMENDED_WORKDIR = '/workspace';

/** Kubernetes-only fields a spawn config may carry besides the contract's. */
export interface KubernetesSpawnExtras {
  /** Service account of this pod; default the context's. */
  readonly serviceAccountName?: string | undefined;
  /** Node selector of this pod, merged over the context's. */
  readonly nodeSelector?: Readonly<Record<string, string>> | undefined;
  /** Annotations added to the pod (keys under `berth.dev/` are reserved). */
  readonly annotations?: Readonly<Record<string, string>> | undefined;
}

/** What `spawn` takes on the Kubernetes context. */
export type KubernetesSpawnConfig = SpawnConfig & KubernetesSpawnExtras;

/** Fields of a pod berth does not build itself, merged underneath what it does. */
export interface KubernetesPodTemplate {
  /** Labels and annotations added to every pod. */
  readonly metadata?:
    | {
        readonly labels?: Readonly<Record<string, string>> | undefined;
        readonly annotations?: Readonly<Record<string, string>> | undefined;
      }
    | undefined;
  /** `V1PodSpec` fields (tolerations, affinity, imagePullSecrets, volumes, priorityClassName, …); not `containers`. */
  readonly spec?: Readonly<Record<string, unknown>> | undefined;
  /** `V1Container` fields for berth's container (volumeMounts, envFrom, imagePullPolicy, …); not name, image, command, args. */
  readonly container?: Readonly<Record<string, unknown>> | undefined;
}

/** The context-wide pod settings (validated options). */
export interface PodDefaults {
  readonly image: string | undefined;
  readonly serviceAccountName: string | undefined;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly runtimeClassName: string | undefined;
  readonly template: KubernetesPodTemplate;
  readonly keepAliveCommand: readonly string[];
  readonly heartbeatIntervalMs: number;
}

export const KUBERNETES_SPAWN_KEYS = [
  ...SPAWN_CONFIG_KEYS,
  ...optionKeys<KubernetesSpawnExtras>({ serviceAccountName: true, nodeSelector: true, annotations: true }),
] as const;
export const POD_TEMPLATE_KEYS = optionKeys<KubernetesPodTemplate>({
  metadata: true,
  spec: true,
  container: true,
});
const TEMPLATE_METADATA_KEYS = ['labels', 'annotations'] as const;

// Label syntax: an optional DNS-subdomain prefix and a name of up to 63 characters.
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
const NUMERIC_USER = /^(\d+)(?::(\d+))?$/;

/** A label or annotation key as the API server accepts it. */
export function validKey(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash === -1) return LABEL_NAME.test(key);
  const prefix = key.slice(0, slash);
  return prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix) && LABEL_NAME.test(key.slice(slash + 1));
}

function stringMap(
  value: unknown,
  field: string,
  kind: 'label' | 'annotation' | 'node selector',
): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, `must be an object of name → string, got ${describeValue(value)}`);
  }
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!validKey(key)) {
      throw new InvalidArgumentError(
        `${field}.${key}`,
        `is not a valid ${kind} key (an optional DNS prefix and "/", then up to 63 letters, digits, "-", "_" or ".")`,
      );
    }
    if (kind !== 'node selector' && key.startsWith(RESERVED_PREFIX)) {
      throw new InvalidArgumentError(
        `${field}.${key}`,
        `keys under ${RESERVED_PREFIX} are reserved for berth`,
      );
    }
    if (typeof entry !== 'string') {
      throw new InvalidArgumentError(`${field}.${key}`, `must be a string, got ${describeValue(entry)}`);
    }
    if (kind !== 'annotation' && !LABEL_VALUE.test(entry)) {
      throw new InvalidArgumentError(
        `${field}.${key}`,
        `is not a valid ${kind} value (up to 63 letters, digits, "-", "_" or "."), got ${describeValue(entry)}`,
      );
    }
    result[key] = entry;
  }
  return result;
}

function nonEmpty(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.includes('\0')) {
    throw new InvalidArgumentError(field, `must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

function absolute(value: unknown, field: string): string | undefined {
  const path = nonEmpty(value, field);
  if (path !== undefined && !path.startsWith('/')) {
    throw new InvalidArgumentError(field, `must be an absolute path, got ${describeValue(path)}`);
  }
  return path;
}

/** Validate a pod template once, at context creation. */
export function validateTemplate(value: unknown, field: string): KubernetesPodTemplate {
  if (value === undefined) return {};
  const template = knownOptions(value as KubernetesPodTemplate, field, POD_TEMPLATE_KEYS, 'a pod template');
  const metadata = knownOptions(
    template.metadata,
    `${field}.metadata`,
    [...TEMPLATE_METADATA_KEYS],
    "a pod template's metadata",
  );
  stringMap(metadata.labels, `${field}.metadata.labels`, 'label');
  stringMap(metadata.annotations, `${field}.metadata.annotations`, 'annotation');
  for (const [part, refused] of [
    ['spec', ['containers', 'restartPolicy']],
    ['container', ['name', 'image', 'command', 'args', 'securityContext']],
  ] as const) {
    const object = template[part];
    if (object === undefined) continue;
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      throw new InvalidArgumentError(`${field}.${part}`, `must be an object, got ${describeValue(object)}`);
    }
    for (const key of refused) {
      if (key in object) {
        throw new InvalidArgumentError(
          `${field}.${part}.${key}`,
          key === 'securityContext'
            ? 'is set by berth from spawn({ user, hardening }); use those'
            : 'is set by berth; use spawn() options (image, cwd, env) and the keepAliveCommand option',
        );
      }
    }
  }
  return template;
}

function resourceList(resources: SpawnConfig['resources']): Record<string, string> {
  if (resources === undefined) return {};
  if (typeof resources !== 'object' || resources === null) {
    throw new InvalidArgumentError('resources', `must be an object, got ${describeValue(resources)}`);
  }
  knownOptions(resources, 'resources', RESOURCE_KEYS, 'spawn resources');
  const list: Record<string, string> = {};
  if (resources.memoryBytes !== undefined) {
    const memory = resources.memoryBytes;
    if (typeof memory !== 'number' || !Number.isSafeInteger(memory) || memory < 4 * 1024 * 1024) {
      throw new InvalidArgumentError(
        'resources.memoryBytes',
        `must be an integer number of bytes of at least 4194304 (4 MiB), got ${describeValue(memory)}`,
      );
    }
    list.memory = String(memory);
  }
  if (resources.cpus !== undefined) {
    const cpus = resources.cpus;
    if (typeof cpus !== 'number' || !Number.isFinite(cpus) || cpus < 0.001 || cpus > 1024) {
      throw new InvalidArgumentError(
        'resources.cpus',
        `must be a number from 0.001 to 1024, got ${describeValue(cpus)}`,
      );
    }
    list.cpu = `${Math.round(cpus * 1000)}m`;
  }
  if (resources.pids !== undefined) {
    throw new InvalidArgumentError(
      'resources.pids',
      "cannot be set per pod on Kubernetes (the kubelet's podPidsLimit is a node setting); leave it out",
    );
  }
  return list;
}

function hostPathMounts(mounts: SpawnConfig['mounts']): {
  volumes: V1Volume[];
  volumeMounts: V1VolumeMount[];
} {
  const volumes: V1Volume[] = [];
  const volumeMounts: V1VolumeMount[] = [];
  if (mounts === undefined) return { volumes, volumeMounts };
  if (!Array.isArray(mounts))
    throw new InvalidArgumentError('mounts', `must be an array, got ${describeValue(mounts)}`);
  mounts.forEach((mount: unknown, index) => {
    const field = `mounts[${index}]`;
    if (typeof mount !== 'object' || mount === null)
      throw new InvalidArgumentError(field, 'must be an object');
    const input = knownOptions(
      mount as NonNullable<SpawnConfig['mounts']>[number],
      field,
      MOUNT_KEYS,
      'a mount',
    );
    const source = absolute(input.source, `${field}.source`);
    const target = absolute(input.target, `${field}.target`);
    if (source === undefined || target === undefined) {
      throw new InvalidArgumentError(
        field,
        'needs a source (a path on the node) and a target (a path in the pod)',
      );
    }
    if (input.readOnly !== undefined && typeof input.readOnly !== 'boolean') {
      throw new InvalidArgumentError(
        `${field}.readOnly`,
        `must be a boolean, got ${describeValue(input.readOnly)}`,
      );
    }
    const name = `berth-mount-${index}`;
    volumes.push({ name, hostPath: { path: source, type: 'Directory' } });
    volumeMounts.push({ name, mountPath: target, readOnly: input.readOnly === true });
  });
  return { volumes, volumeMounts };
}

interface Hardening {
  readonly container: NonNullable<V1Container['securityContext']>;
  readonly pod: Partial<V1PodSpec>;
  readonly podSecurity: NonNullable<V1PodSpec['securityContext']>;
  /** Paths that get an emptyDir because the root is read-only. */
  readonly writable: readonly string[];
  readonly workingDir: string | undefined;
}

function hardeningOf(hardening: SpawnConfig['hardening'], cwd: string | undefined): Hardening {
  const none: Hardening = { container: {}, pod: {}, podSecurity: {}, writable: [], workingDir: undefined };
  if (hardening === undefined) return none;
  if (hardening === 'recommended') {
    const workingDir = cwd ?? RECOMMENDED_WORKDIR;
    return {
      container: {
        capabilities: { drop: ['ALL'] },
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
      },
      // The pod's commands get no API credentials and no service links: the agent cannot reach
      // the API server with the pod's service account, nor learn the namespace's services.
      pod: { automountServiceAccountToken: false, enableServiceLinks: false },
      podSecurity: { seccompProfile: { type: 'RuntimeDefault' } },
      writable: workingDir === '/' ? ['/tmp'] : ['/tmp', workingDir],
      workingDir,
    };
  }
  if (typeof hardening !== 'object' || hardening === null || Array.isArray(hardening)) {
    throw new InvalidArgumentError(
      'hardening',
      `must be "recommended" or an object of measures, got ${describeValue(hardening)}`,
    );
  }
  knownOptions(hardening, 'hardening', HARDENING_KEYS, 'spawn hardening');
  for (const key of HARDENING_KEYS) {
    const value = hardening[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidArgumentError(`hardening.${key}`, `must be a boolean, got ${describeValue(value)}`);
    }
  }
  const container: NonNullable<V1Container['securityContext']> = {};
  if (hardening.dropAllCapabilities === true) container.capabilities = { drop: ['ALL'] };
  if (hardening.noNewPrivileges === true) container.allowPrivilegeEscalation = false;
  if (hardening.readOnlyRootfs === true) container.readOnlyRootFilesystem = true;
  return { ...none, container, writable: hardening.readOnlyRootfs === true ? ['/tmp'] : [] };
}

/** What `planPod` decided. */
export interface PodPlan {
  readonly pod: V1Pod;
  readonly image: string;
}

/**
 * Validate `config` and build the pod.
 * @throws InvalidArgumentError naming the first bad field.
 */
export function planPod(
  config: KubernetesSpawnConfig,
  handleId: string,
  podName: string,
  defaults: PodDefaults,
): PodPlan {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new InvalidArgumentError('config', `must be an object, got ${describeValue(config)}`);
  }
  knownOptions(config, 'config', KUBERNETES_SPAWN_KEYS, 'spawn on the kubernetes context');
  const image = nonEmpty(config.image ?? defaults.image, 'image');
  if (image === undefined) {
    throw new InvalidArgumentError(
      'image',
      'no image given; pass spawn({ image }) or createKubernetesContext({ image })',
    );
  }
  const cwd = absolute(config.cwd, 'cwd');
  const env = envList('env', config.env, false).map((entry) => {
    const at = entry.indexOf('=');
    return { name: entry.slice(0, at), value: entry.slice(at + 1) };
  });
  if (config.network !== undefined) {
    throw new InvalidArgumentError(
      'network',
      'is not supported by the kubernetes context: a pod is on the cluster network; restrict it with a NetworkPolicy (see docs/kubernetes.md)',
    );
  }
  if (config.ports !== undefined) {
    throw new InvalidArgumentError(
      'ports',
      'is not supported by the kubernetes context: reach a pod through a Service or `kubectl port-forward`',
    );
  }
  const podSecurity: NonNullable<V1PodSpec['securityContext']> = {};
  if (config.user !== undefined) {
    const user = nonEmpty(config.user, 'user')!;
    const numeric = NUMERIC_USER.exec(user);
    if (numeric === null) {
      throw new InvalidArgumentError(
        'user',
        `must be uid or uid:gid (numbers: Kubernetes has no user names), got ${describeValue(user)}`,
      );
    }
    podSecurity.runAsUser = Number(numeric[1]);
    if (numeric[2] !== undefined) podSecurity.runAsGroup = Number(numeric[2]);
  }
  const runtimeClassName = nonEmpty(config.runtime, 'runtime') ?? defaults.runtimeClassName;
  const serviceAccountName =
    nonEmpty(config.serviceAccountName, 'serviceAccountName') ?? defaults.serviceAccountName;
  const nodeSelector = {
    ...defaults.nodeSelector,
    ...stringMap(config.nodeSelector, 'nodeSelector', 'node selector'),
  };
  const resources = resourceList(config.resources);
  const mounts = hostPathMounts(config.mounts);
  const hardening = hardeningOf(config.hardening, cwd);
  const template = defaults.template;
  const labels = {
    ...stringMap(template.metadata?.labels, 'podTemplate.metadata.labels', 'label'),
    ...stringMap(config.labels, 'labels', 'label'),
    ...ownershipLabels(handleId),
  };
  const annotations = {
    ...stringMap(template.metadata?.annotations, 'podTemplate.metadata.annotations', 'annotation'),
    ...stringMap(config.annotations, 'annotations', 'annotation'),
    ...ownershipAnnotations(defaults.heartbeatIntervalMs),
  };
  const covered = (path: string) =>
    mounts.volumeMounts.some(
      (mount) => path === mount.mountPath || path.startsWith(`${mount.mountPath.replace(/\/$/, '')}/`),
    );
  const writable = hardening.writable.filter((path) => !covered(path));
  const scratchVolumes: V1Volume[] = writable.map((_, index) => ({
    name: `berth-scratch-${index}`,
    emptyDir: {},
  }));
  const scratchMounts: V1VolumeMount[] = writable.map((path, index) => ({
    name: `berth-scratch-${index}`,
    mountPath: path,
  }));
  const extraContainer = (template.container ?? {}) as Partial<V1Container>;
  const container: V1Container = {
    ...extraContainer,
    name: CONTAINER_NAME,
    image,
    command: [...defaults.keepAliveCommand],
    env: [...(extraContainer.env ?? []), ...env],
    volumeMounts: [...(extraContainer.volumeMounts ?? []), ...mounts.volumeMounts, ...scratchMounts],
    ...(Object.keys(resources).length > 0 ? { resources: { requests: resources, limits: resources } } : {}),
    ...(Object.keys(hardening.container).length > 0 ? { securityContext: hardening.container } : {}),
  };
  const workingDir = cwd ?? hardening.workingDir;
  if (workingDir !== undefined) container.workingDir = workingDir;
  const extraSpec = (template.spec ?? {}) as Partial<V1PodSpec>;
  const securityContext = { ...(extraSpec.securityContext ?? {}), ...hardening.podSecurity, ...podSecurity };
  const spec: V1PodSpec = {
    ...extraSpec,
    ...hardening.pod,
    containers: [container],
    restartPolicy: 'Never',
    // Deletion is berth's own TERM → grace → KILL; the pod's shell ends at once on TERM.
    terminationGracePeriodSeconds: extraSpec.terminationGracePeriodSeconds ?? 5,
    volumes: [...(extraSpec.volumes ?? []), ...mounts.volumes, ...scratchVolumes],
    ...(Object.keys(securityContext).length > 0 ? { securityContext } : {}),
  };
  if (serviceAccountName !== undefined) spec.serviceAccountName = serviceAccountName;
  if (Object.keys(nodeSelector).length > 0) spec.nodeSelector = nodeSelector;
  if (runtimeClassName !== undefined) spec.runtimeClassName = runtimeClassName;
  return {
    image,
    pod: { apiVersion: 'v1', kind: 'Pod', metadata: { name: podName, labels, annotations }, spec },
  };
}
