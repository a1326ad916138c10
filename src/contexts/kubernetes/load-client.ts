/**
 * `@kubernetes/client-node` is an optional peer dependency: it is loaded on the first use of a
 * Kubernetes context, never when berth itself is imported, and a missing or unloadable package is
 * a `KubernetesClientMissingError` that names it and says how to install it.
 * @module
 */
import { createRequire } from 'node:module';
import { CLIENT_PACKAGE, KubernetesClientMissingError } from './errors.js';

/** The client library's module namespace. */
export type KubernetesClient = typeof import('@kubernetes/client-node');

/** The `ws` WebSocket class the client library itself uses (resolved from its own location). */
export type WebSocketClass = typeof import('ws').WebSocket;

/** What berth needs from the peer: the library and the WebSocket class under it. */
export interface LoadedClient {
  readonly k8s: KubernetesClient;
  readonly WebSocket: WebSocketClass;
}

/** How the library is imported; replaced in tests to exercise the failure path. */
export type ClientImporter = () => Promise<KubernetesClient>;

const defaultImporter: ClientImporter = () => import('@kubernetes/client-node');

let cached: Promise<LoadedClient> | undefined;

/**
 * Load the client library once per process.
 * @throws KubernetesClientMissingError when it is not installed or fails to import.
 */
export function loadClient(importer: ClientImporter = defaultImporter): Promise<LoadedClient> {
  if (importer !== defaultImporter) return load(importer);
  cached ??= load(importer).catch((error: unknown) => {
    cached = undefined; // a later call may find it installed
    throw error;
  });
  return cached;
}

async function load(importer: ClientImporter): Promise<LoadedClient> {
  let k8s: KubernetesClient;
  try {
    k8s = await importer();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const detail =
      code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
        ? 'it is not installed'
        : `importing it failed: ${(error as Error).message}`;
    throw new KubernetesClientMissingError(detail, { cause: error });
  }
  if (typeof k8s.KubeConfig !== 'function' || typeof k8s.Exec !== 'function') {
    throw new KubernetesClientMissingError(`the installed ${CLIENT_PACKAGE} has no KubeConfig or Exec`);
  }
  return { k8s, WebSocket: webSocketBeside() };
}

/**
 * The `ws` package as the client library resolves it: berth's exec sockets must be the same
 * implementation the library's handler expects (it reads `protocol`, `readyState`, Buffers).
 */
function webSocketBeside(): WebSocketClass {
  try {
    const requireFromHere = createRequire(import.meta.url);
    const clientEntry = requireFromHere.resolve(CLIENT_PACKAGE);
    const ws = createRequire(clientEntry)('ws') as { WebSocket?: WebSocketClass } & WebSocketClass;
    return ws.WebSocket ?? ws;
  } catch (error) {
    throw new KubernetesClientMissingError(
      `its WebSocket dependency ws could not be resolved: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
