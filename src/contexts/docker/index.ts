/**
 * `berth/docker`: the ExecutionContext contract on a Docker engine.
 * @module
 */
export * from '../../errors/index.js';
export type { DockerContextOptions } from './context-options.js';
export {
  createDockerContext,
  DOCKER_CAPABILITIES,
  type DockerContext,
  sweepDockerContainers,
} from './docker-context.js';
export { DEFAULT_DOCKER_SOCKET } from './engine-endpoint.js';
export {
  ContainerGoneError,
  DockerApiError,
  DockerImageNotFoundError,
  DockerUnavailableError,
} from './errors.js';
export { HANDLE_LABEL, MANAGED_LABEL, OWNER_HOST_LABEL, OWNER_PID_LABEL } from './ownership.js';
