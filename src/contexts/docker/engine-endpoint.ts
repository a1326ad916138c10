/**
 * Where the Docker engine listens: an explicit option, else `DOCKER_HOST`, else the default local
 * socket. Resolved once, validated, and printable for error messages.
 * @module
 */
import { InvalidArgumentError } from '../../errors/index.js';

/** A resolved engine address: a unix socket or a plain TCP host. */
export type EngineEndpoint =
  | { readonly kind: 'unix'; readonly socketPath: string }
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number };

/** The socket a local engine listens on by default. */
export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

/** How the caller named the engine; all optional. */
export interface EndpointOptions {
  /** Unix socket path of the engine; wins over `host` and `DOCKER_HOST`. */
  readonly socketPath?: string | undefined;
  /** `unix:///path`, `tcp://host:port` or `http://host:port`; wins over `DOCKER_HOST`. */
  readonly host?: string | undefined;
}

/**
 * Resolve the engine endpoint.
 * @param options - explicit choices; `env` defaults to `process.env`.
 * @throws InvalidArgumentError when the address is malformed or needs TLS (not supported).
 */
export function resolveEndpoint(
  options: EndpointOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): EngineEndpoint {
  if (options.socketPath !== undefined) {
    if (typeof options.socketPath !== 'string' || options.socketPath === '') {
      throw new InvalidArgumentError('socketPath', 'must be a non-empty path to the engine socket');
    }
    return { kind: 'unix', socketPath: options.socketPath };
  }
  const field = options.host !== undefined ? 'host' : 'DOCKER_HOST';
  const raw = options.host ?? env.DOCKER_HOST;
  if (raw === undefined || raw === '') return { kind: 'unix', socketPath: DEFAULT_DOCKER_SOCKET };
  if (typeof raw !== 'string')
    throw new InvalidArgumentError(field, 'must be a string such as tcp://host:2375');
  if (raw.startsWith('unix://')) {
    const socketPath = raw.slice('unix://'.length);
    if (socketPath === '')
      throw new InvalidArgumentError(field, `${JSON.stringify(raw)} names no socket path`);
    return { kind: 'unix', socketPath };
  }
  const match = /^(tcp|http):\/\/(\[[^\]]+\]|[^:/]+)(?::(\d+))?\/?$/.exec(raw);
  if (match === null) {
    throw new InvalidArgumentError(
      field,
      `${JSON.stringify(raw)} is not a supported engine address; use unix:///path/to/docker.sock or tcp://host:port (ssh:// and https:// are not supported)`,
    );
  }
  if (env.DOCKER_TLS_VERIFY !== undefined && env.DOCKER_TLS_VERIFY !== '' && env.DOCKER_TLS_VERIFY !== '0') {
    throw new InvalidArgumentError(
      'DOCKER_TLS_VERIFY',
      'TLS connections to the engine are not supported; unset DOCKER_TLS_VERIFY and reach the engine over a local socket or an ssh tunnel to it',
    );
  }
  const port = match[3] === undefined ? 2375 : Number(match[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new InvalidArgumentError(
      field,
      `port ${match[3]} in ${JSON.stringify(raw)} is out of range 1-65535`,
    );
  }
  return { kind: 'tcp', host: match[2]!.replace(/^\[|\]$/g, ''), port };
}

/** Printable form for messages. */
export function describeEndpoint(endpoint: EngineEndpoint): string {
  return endpoint.kind === 'unix'
    ? `unix://${endpoint.socketPath}`
    : `tcp://${endpoint.host}:${endpoint.port}`;
}
