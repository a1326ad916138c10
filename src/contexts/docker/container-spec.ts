/**
 * Turns a `SpawnConfig` into the engine's container-create body, validating every field first so
 * a bad option fails with an `InvalidArgumentError` naming it instead of an engine error later.
 * @module
 */

import { MOUNT_KEYS, PORT_KEYS, RESOURCE_KEYS, SPAWN_CONFIG_KEYS } from '../../contract/option-keys.js';
import type { MountSpec, PortMapping, SpawnConfig } from '../../contract/types.js';
import { describeValue, knownOptions } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { planHardening } from './hardening.js';
import { ownershipLabels, RESERVED_LABEL_PREFIX } from './ownership.js';

/** Directory inside the container where berth keeps pid files, exit files and background logs. */
export const STATE_DIR = '/tmp/.berth';

/** Longest sleep every `sleep` implementation accepts; the container lives until berth removes it. */
const KEEP_ALIVE = ['sleep', '2147483647'];

/** The validated facts berth needs after create. */
export interface ContainerPlan {
  readonly image: string;
  readonly body: Record<string, unknown>;
  /** The root filesystem is read-only (hardening): only mounts and volumes take writes. */
  readonly readOnlyRoot: boolean;
}

const ENV_NAME = /^[^=\0]+$/;
const USER = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*(:[A-Za-z0-9_.][A-Za-z0-9_.-]*)?$/;

function requireString(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentError(field, `must be a non-empty string, got ${describeValue(value)}`);
  }
  if (value.includes('\0'))
    throw new InvalidArgumentError(field, `must not contain a NUL byte, got ${describeValue(value)}`);
  return value;
}

function requireAbsolute(field: string, value: unknown): string {
  const path = requireString(field, value);
  if (!path.startsWith('/'))
    throw new InvalidArgumentError(field, `must be an absolute path, got ${describeValue(value)}`);
  return path;
}

function requirePositiveInteger(field: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new InvalidArgumentError(field, `must be an integer from 1 to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/** Validate an environment map; `undefined` values are allowed only where `allowUnset`. */
export function envList(
  field: string,
  env: Readonly<Record<string, string | undefined>> | undefined,
  allowUnset: boolean,
): string[] {
  if (env === undefined) return [];
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw new InvalidArgumentError(field, `must be an object of name → string, got ${describeValue(env)}`);
  }
  const list: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name))
      throw new InvalidArgumentError(`${field}.${name}`, 'is not a valid variable name');
    if (value === undefined && allowUnset) continue;
    if (typeof value !== 'string' || value.includes('\0')) {
      throw new InvalidArgumentError(
        `${field}.${name}`,
        `must be a string without NUL bytes, got ${describeValue(value)}`,
      );
    }
    list.push(`${name}=${value}`);
  }
  return list;
}

function portBindings(ports: readonly PortMapping[] | undefined): {
  exposed: Record<string, object>;
  bindings: Record<string, { HostIp: string; HostPort: string }[]>;
} {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  if (ports === undefined) return { exposed, bindings };
  if (!Array.isArray(ports))
    throw new InvalidArgumentError('ports', `must be an array, got ${describeValue(ports)}`);
  ports.forEach((port: PortMapping, index) => {
    const field = `ports[${index}]`;
    if (typeof port !== 'object' || port === null) throw new InvalidArgumentError(field, 'must be an object');
    knownOptions(port, field, PORT_KEYS, 'a port mapping');
    const container = requirePositiveInteger(`${field}.container`, port.container, 65_535);
    const host =
      port.host === undefined ? undefined : requirePositiveInteger(`${field}.host`, port.host, 65_535);
    const protocol = port.protocol ?? 'tcp';
    if (protocol !== 'tcp' && protocol !== 'udp') {
      throw new InvalidArgumentError(
        `${field}.protocol`,
        `must be "tcp" or "udp", got ${describeValue(protocol)}`,
      );
    }
    const hostIp = port.hostIp === undefined ? '127.0.0.1' : requireString(`${field}.hostIp`, port.hostIp);
    const key = `${container}/${protocol}`;
    exposed[key] = {};
    const list = bindings[key] ?? [];
    list.push({ HostIp: hostIp, HostPort: host === undefined ? '' : String(host) });
    bindings[key] = list;
  });
  return { exposed, bindings };
}

function mountList(mounts: readonly MountSpec[] | undefined): { Target: string }[] {
  if (mounts === undefined) return [];
  if (!Array.isArray(mounts))
    throw new InvalidArgumentError('mounts', `must be an array, got ${describeValue(mounts)}`);
  return mounts.map((mount: MountSpec, index) => {
    const field = `mounts[${index}]`;
    if (typeof mount !== 'object' || mount === null)
      throw new InvalidArgumentError(field, 'must be an object');
    knownOptions(mount, field, MOUNT_KEYS, 'a mount');
    const source = requireAbsolute(`${field}.source`, mount.source);
    const target = requireAbsolute(`${field}.target`, mount.target);
    if (mount.readOnly !== undefined && typeof mount.readOnly !== 'boolean') {
      throw new InvalidArgumentError(
        `${field}.readOnly`,
        `must be a boolean, got ${describeValue(mount.readOnly)}`,
      );
    }
    return { Type: 'bind', Source: source, Target: target, ReadOnly: mount.readOnly === true };
  });
}

function labelMap(labels: SpawnConfig['labels'], handleId: string): Record<string, string> {
  const result: Record<string, string> = {};
  if (labels !== undefined) {
    if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
      throw new InvalidArgumentError(
        'labels',
        `must be an object of name → string, got ${describeValue(labels)}`,
      );
    }
    for (const [key, value] of Object.entries(labels)) {
      if (key.startsWith(RESERVED_LABEL_PREFIX)) {
        throw new InvalidArgumentError(
          `labels.${key}`,
          `keys under ${RESERVED_LABEL_PREFIX} are reserved for berth`,
        );
      }
      if (typeof value !== 'string') {
        throw new InvalidArgumentError(`labels.${key}`, `must be a string, got ${describeValue(value)}`);
      }
      result[key] = value;
    }
  }
  return { ...result, ...ownershipLabels(handleId) };
}

function hostResources(resources: SpawnConfig['resources']): Record<string, number> {
  if (resources === undefined) return {};
  if (typeof resources !== 'object' || resources === null) {
    throw new InvalidArgumentError('resources', `must be an object, got ${describeValue(resources)}`);
  }
  knownOptions(resources, 'resources', RESOURCE_KEYS, 'spawn resources');
  const result: Record<string, number> = {};
  if (resources.memoryBytes !== undefined) {
    const memory = requirePositiveInteger('resources.memoryBytes', resources.memoryBytes);
    // The engine refuses less than 6 MiB; say so here with the field name.
    if (memory < 6 * 1024 * 1024) {
      throw new InvalidArgumentError(
        'resources.memoryBytes',
        `must be at least 6291456 (6 MiB), got ${memory}`,
      );
    }
    result.Memory = memory;
    result.MemorySwap = memory; // no swap beyond the limit
  }
  if (resources.cpus !== undefined) {
    const cpus = resources.cpus;
    if (typeof cpus !== 'number' || !Number.isFinite(cpus) || cpus <= 0 || cpus > 1024) {
      throw new InvalidArgumentError(
        'resources.cpus',
        `must be a number above 0 (e.g. 0.5), got ${describeValue(cpus)}`,
      );
    }
    result.NanoCpus = Math.max(1, Math.round(cpus * 1e9));
  }
  if (resources.pids !== undefined)
    result.PidsLimit = requirePositiveInteger('resources.pids', resources.pids);
  return result;
}

/**
 * Validate `config` and build the create body.
 * @param defaultImage - the context's image, used when the config names none.
 * @param imageWorkdir - the image's working directory, when `needsImageWorkdir(config)` (the
 *   recommended preset makes it writable); plan once without it to validate first.
 * @throws InvalidArgumentError naming the first bad field.
 */
export function planContainer(
  config: SpawnConfig,
  handleId: string,
  defaultImage: string | undefined,
  imageWorkdir?: string | undefined,
): ContainerPlan {
  if (typeof config !== 'object' || config === null) {
    throw new InvalidArgumentError('config', `must be an object, got ${describeValue(config)}`);
  }
  knownOptions(config, 'config', SPAWN_CONFIG_KEYS, 'spawn');
  const imageValue = config.image ?? defaultImage;
  if (imageValue === undefined) {
    throw new InvalidArgumentError(
      'image',
      'no image given; pass spawn({ image }) or createDockerContext({ image })',
    );
  }
  const image = requireString('image', imageValue);
  const cwd = config.cwd === undefined ? undefined : requireAbsolute('cwd', config.cwd);
  const env = envList('env', config.env, false);
  let user: string | undefined;
  if (config.user !== undefined) {
    user = requireString('user', config.user);
    if (!USER.test(user)) {
      throw new InvalidArgumentError(
        'user',
        `must be uid, uid:gid or a user name, got ${describeValue(config.user)}`,
      );
    }
  }
  const network = config.network === undefined ? undefined : requireString('network', config.network);
  const runtime = config.runtime === undefined ? undefined : requireString('runtime', config.runtime);
  const { exposed, bindings } = portBindings(config.ports);
  const mounts = mountList(config.mounts);
  const resources = hostResources(config.resources);
  const hardening = planHardening(config.hardening, {
    cwd,
    imageWorkdir,
    mountTargets: mounts.map((mount) => mount.Target),
    network,
    hasPorts: Object.keys(exposed).length > 0,
    pids: resources.PidsLimit,
    stateDir: STATE_DIR,
  });
  const hostConfig: Record<string, unknown> = {
    Init: true, // a reaping PID 1, so killed process groups leave no zombies behind
    PortBindings: bindings,
    Mounts: mounts,
    ...resources,
    ...hardening.host,
  };
  if (network !== undefined) hostConfig.NetworkMode = network;
  if (runtime !== undefined) hostConfig.Runtime = runtime;
  const body: Record<string, unknown> = {
    Image: image,
    Entrypoint: [],
    Cmd: KEEP_ALIVE,
    Env: env,
    Labels: labelMap(config.labels, handleId),
    ExposedPorts: exposed,
    Tty: false,
    OpenStdin: false,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    HostConfig: hostConfig,
  };
  if (hardening.volumes.length > 0)
    body.Volumes = Object.fromEntries(hardening.volumes.map((path) => [path, {}]));
  const workingDir = cwd ?? hardening.workingDir;
  if (workingDir !== undefined) body.WorkingDir = workingDir;
  if (user !== undefined) body.User = user;
  return { image, body, readOnlyRoot: hostConfig.ReadonlyRootfs === true };
}
