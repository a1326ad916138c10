/**
 * Ending a Docker handle: its background tasks (TERM, grace, KILL), its streams and terminals, then
 * its container, unless a task another handle owns still runs there (the container is retired and
 * goes with that task). A container the engine would not remove is remembered for `sweep()`.
 * @module
 */
import type { BackgroundRegistry } from '../../contract/background-registry.js';
import { BerthError } from '../../errors/index.js';
import type { RetiredHosts } from '../shared/retired-hosts.js';
import { noteUnremoved, removeContainer } from './container-lifecycle.js';
import type { EngineClient } from './engine-client.js';
import { DockerUnavailableError } from './errors.js';
import type { HandleState } from './handle-state.js';

/** What ending a handle needs from its context. */
export interface TeardownDeps {
  readonly client: EngineClient;
  readonly registry: BackgroundRegistry;
  readonly retired: RetiredHosts<string>;
  readonly destroyGraceMs: number;
}

/** End everything of the handle; rejects when its container could not be removed. */
export async function tearDownHandle(deps: TeardownDeps, state: HandleState): Promise<void> {
  try {
    await deps.registry.destroyHandle(state.handle.id, deps.destroyGraceMs);
    await Promise.all([...state.live].map((end) => end().catch(() => undefined)));
    // Only tasks another handle owns now keep the container (this handle's are forgotten above,
    // whether or not they could be ended).
    const kept = deps.retired.retireIfHosting(state.containerId, (id) => deps.registry.isTracked(id));
    if (!kept) await removeHandleContainer(deps.client, state.containerId, state.handle.id);
    await deps.retired.settled();
  } finally {
    state.spillDir?.remove();
  }
}

/**
 * Remove a handle's container, or throw saying it could not: the container is then remembered,
 * and `sweep()` (of any context in this process) retries it.
 */
export async function removeHandleContainer(
  client: EngineClient,
  containerId: string,
  handleId: string,
): Promise<void> {
  try {
    await client.call(`removing the container of ${handleId}`, () => removeContainer(client, containerId));
  } catch (error) {
    noteUnremoved(containerId);
    const why = error instanceof Error ? error.message : String(error);
    throw new BerthError(
      error instanceof DockerUnavailableError ? 'E_DOCKER_UNAVAILABLE' : 'E_DOCKER_API',
      `container ${containerId.slice(0, 12)} of handle ${handleId} could not be removed and may still be running (${why}); call sweep() once the engine answers, or remove it with \`docker rm -f ${containerId.slice(0, 12)}\``,
      { cause: error },
    );
  }
}

/** Remove a retired container; a failure is remembered for `sweep()`, never thrown. */
export function removeRetiredContainer(client: EngineClient, containerId: string): Promise<void> {
  return removeContainer(client, containerId).catch(() => noteUnremoved(containerId));
}
