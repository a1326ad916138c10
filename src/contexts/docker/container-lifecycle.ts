/**
 * A handle's container from birth to removal: create (mapping a missing image to its own error),
 * start, prepare berth's state directory, remove; plus the port lookup and the sweep of abandoned
 * containers.
 * @module
 */
import type { SpawnConfig } from '../../contract/types.js';
import { BerthError } from '../../errors/index.js';
import { collectExec } from './collect-exec.js';
import { type ContainerPlan, STATE_DIR } from './container-spec.js';
import type { EngineClient } from './engine-client.js';
import { containerErrorOf } from './engine-exec.js';
import { DockerApiError, DockerImageNotFoundError } from './errors.js';
import { isAbandoned, MANAGED_LABEL } from './ownership.js';

/** A started container. */
export interface StartedContainer {
  readonly containerId: string;
  /** The working directory commands start in (the config's, else the image's). */
  readonly cwd: string;
}

// Run as root: creates the state directory (sticky and world-writable, like /tmp) and prints the
// working directory.
const SETUP_SCRIPT = `mkdir -p ${STATE_DIR} && chmod 1777 ${STATE_DIR} || exit 3
pwd`;

function runtimeHint(error: DockerApiError, config: SpawnConfig): string | undefined {
  if (config.runtime !== undefined && /runtime/i.test(error.engineMessage)) {
    return `the engine has no usable OCI runtime ${JSON.stringify(config.runtime)}; register it in the engine's daemon.json "runtimes" or leave runtime unset`;
  }
  if (/executable file not found|no such file or directory/i.test(error.engineMessage)) {
    return "berth's docker context needs /bin/sh and sleep in the image";
  }
  return undefined;
}

/**
 * Create and start a container for `handleId`, then prepare it. On any failure after create the
 * container is removed again, so a failed spawn leaves nothing behind.
 */
export async function startContainer(
  client: EngineClient,
  handleId: string,
  config: SpawnConfig,
  plan: ContainerPlan,
): Promise<StartedContainer> {
  let containerId: string;
  try {
    const { body } = await client.json<{ Id: string }>({
      method: 'POST',
      path: '/containers/create',
      query: { name: `berth-${handleId}` },
      json: plan.body,
    });
    containerId = body.Id;
  } catch (error) {
    if (
      error instanceof DockerApiError &&
      error.statusCode === 404 &&
      /no such image/i.test(error.engineMessage)
    ) {
      throw new DockerImageNotFoundError(plan.image, { cause: error });
    }
    if (error instanceof DockerApiError) {
      const hint = runtimeHint(error, config);
      if (hint) throw new DockerApiError(error.statusCode, error.request, error.engineMessage, hint);
    }
    throw error;
  }
  try {
    await client.json({ method: 'POST', path: `/containers/${containerId}/start` });
    const setup = await collectExec(client, containerId, ['/bin/sh', '-c', SETUP_SCRIPT], {
      user: '0',
      maxStdoutBytes: 64 * 1024,
      what: 'preparing the container',
    });
    if (setup.exitCode !== 0) {
      throw new BerthError(
        'E_DOCKER_API',
        `container for ${handleId} started but could not be prepared (exit ${setup.exitCode}): ${setup.stderr.trim()}`,
      );
    }
    const cwd = config.cwd ?? (setup.stdout.toString('utf8').trim() || '/');
    return { containerId, cwd };
  } catch (error) {
    await removeContainer(client, containerId).catch(() => noteUnremoved(containerId));
    if (error instanceof DockerApiError) {
      const hint = runtimeHint(error, config);
      if (hint) throw new DockerApiError(error.statusCode, error.request, error.engineMessage, hint);
    }
    throw error;
  }
}

/**
 * Containers this process failed to remove (the engine did not answer, or refused): `sweep()`
 * retries them, since their owner (this process) is alive and the ownership labels alone would
 * never mark them abandoned.
 */
const unremoved = new Set<string>();

/** Remember a container whose removal failed, for the next sweep. */
export function noteUnremoved(containerId: string): void {
  unremoved.add(containerId);
}

/** The image's own working directory (`''` when it names none). A missing image is its own error. */
export async function imageWorkingDir(client: EngineClient, image: string): Promise<string> {
  try {
    const { body } = await client.json<{ Config?: { WorkingDir?: string } }>({
      method: 'GET',
      path: `/images/${encodeURIComponent(image)}/json`,
    });
    return body.Config?.WorkingDir ?? '';
  } catch (error) {
    if (error instanceof DockerApiError && error.statusCode === 404)
      throw new DockerImageNotFoundError(image, { cause: error });
    throw error;
  }
}

/** Remove a container and its anonymous volumes; one already gone is fine. */
export async function removeContainer(client: EngineClient, containerId: string): Promise<void> {
  try {
    await client.json({
      method: 'DELETE',
      path: `/containers/${encodeURIComponent(containerId)}`,
      query: { force: true, v: true },
    });
    unremoved.delete(containerId);
  } catch (error) {
    if (error instanceof DockerApiError && error.statusCode === 404) {
      unremoved.delete(containerId);
      return;
    }
    // Removal already in progress (a concurrent destroy or sweep) counts as removed.
    if (
      error instanceof DockerApiError &&
      error.statusCode === 409 &&
      /in progress/i.test(error.engineMessage)
    )
      return;
    throw error;
  }
}

/** Host port a container port was published on; null when not published. */
export async function mappedPort(
  client: EngineClient,
  containerId: string,
  containerPort: number,
): Promise<number | null> {
  let ports: Record<string, { HostIp: string; HostPort: string }[] | null> | undefined;
  try {
    const { body } = await client.json<{ NetworkSettings?: { Ports?: typeof ports } }>({
      method: 'GET',
      path: `/containers/${encodeURIComponent(containerId)}/json`,
    });
    ports = body.NetworkSettings?.Ports;
  } catch (error) {
    throw containerErrorOf(error, containerId);
  }
  for (const key of [`${containerPort}/tcp`, `${containerPort}/udp`]) {
    const binding = ports?.[key]?.find((entry) => entry.HostPort !== '');
    if (binding) return Number(binding.HostPort);
  }
  return null;
}

/**
 * Containers carrying berth's label whose owner process on this host is gone, and those this
 * process failed to remove before; removes them.
 */
export async function sweepAbandoned(client: EngineClient): Promise<string[]> {
  const removed: string[] = [];
  for (const containerId of [...unremoved]) {
    await removeContainer(client, containerId);
    removed.push(containerId);
  }
  const { body } = await client.json<{ Id: string; Labels: Record<string, string> | null }[]>({
    method: 'GET',
    path: '/containers/json',
    query: { all: true, filters: JSON.stringify({ label: [`${MANAGED_LABEL}=true`] }) },
  });
  for (const container of body) {
    if (!isAbandoned(container.Labels ?? {}) || removed.includes(container.Id)) continue;
    await removeContainer(client, container.Id);
    removed.push(container.Id);
  }
  return removed;
}
