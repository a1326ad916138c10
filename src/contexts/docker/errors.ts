/**
 * Typed errors of the Docker context. Each carries a stable `code` from `BerthErrorCode`, the
 * values involved, and a message that says what to do.
 * @module
 */
import { BerthError } from '../../errors/index.js';

/** The Docker engine could not be reached (no socket, refused, timed out) or answered garbage. */
export class DockerUnavailableError extends BerthError {
  /** Where berth tried to reach the engine, e.g. `unix:///var/run/docker.sock`. */
  readonly endpoint: string;
  constructor(endpoint: string, detail: string, options?: { cause?: unknown }) {
    super(
      'E_DOCKER_UNAVAILABLE',
      `the Docker engine at ${endpoint} is not reachable (${detail}); start dockerd, or point DOCKER_HOST (or the socketPath / host option) at a running engine`,
      options,
    );
    this.endpoint = endpoint;
  }
}

/** The image is not present in the engine (berth never pulls implicitly). */
export class DockerImageNotFoundError extends BerthError {
  readonly image: string;
  constructor(image: string, options?: { cause?: unknown }) {
    super(
      'E_DOCKER_IMAGE_NOT_FOUND',
      `image ${JSON.stringify(image)} is not present in the Docker engine; pull or build it first (\`docker pull ${image}\`), berth does not pull images on its own`,
      options,
    );
    this.image = image;
  }
}

/** The engine answered a request with an error status. */
export class DockerApiError extends BerthError {
  /** HTTP status the engine returned. */
  readonly statusCode: number;
  /** `METHOD /path` of the failed request. */
  readonly request: string;
  /** The engine's own message. */
  readonly engineMessage: string;
  constructor(statusCode: number, request: string, engineMessage: string, hint?: string) {
    super(
      'E_DOCKER_API',
      `the Docker engine refused ${request} with HTTP ${statusCode}: ${engineMessage}${hint ? `; ${hint}` : ''}`,
    );
    this.statusCode = statusCode;
    this.request = request;
    this.engineMessage = engineMessage;
  }
}

/** The handle's container stopped or was removed behind berth's back. */
export class ContainerGoneError extends BerthError {
  readonly containerId: string;
  constructor(containerId: string, detail: string, options?: { cause?: unknown }) {
    super(
      'E_CONTAINER_GONE',
      `container ${containerId.slice(0, 12)} is no longer running (${detail}); destroy this handle and spawn a new one`,
      options,
    );
    this.containerId = containerId;
  }
}
