/**
 * `berth/docker`: a container per handle over the Docker Engine API.
 * @module
 */
export type { DockerContextOptions } from '../contexts/docker/context-options.js';
export {
  createDockerContext,
  type DockerContext,
  sweepDockerContainers,
} from '../contexts/docker/docker-context.js';
export { DEFAULT_DOCKER_SOCKET } from '../contexts/docker/engine-endpoint.js';
export {
  ContainerGoneError,
  DockerApiError,
  DockerImageNotFoundError,
  DockerUnavailableError,
} from '../contexts/docker/errors.js';
