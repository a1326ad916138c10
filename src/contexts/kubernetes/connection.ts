/**
 * One home for reaching a cluster: load the client library, resolve the kubeconfig as kubectl
 * does, and open the pod API with the request deadline.
 * @module
 */
import { resolveKubeconfig } from './kubeconfig.js';
import { type LoadedClient, loadClient } from './load-client.js';
import { PodApi } from './pod-api.js';

/** A client, the pod API on the chosen namespace, and where its configuration came from. */
export interface Connection {
  readonly client: LoadedClient;
  readonly api: PodApi;
  /** Where the kubeconfig came from and which context it used, for people. */
  readonly description: string;
}

/** What a connection is made from (the resolved options of any entry point). */
export interface ConnectionChoice {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly namespace: string | undefined;
  readonly requestTimeoutMs: number;
}

/**
 * @throws KubernetesClientMissingError without the client library; KubeconfigError without a
 *   usable kubeconfig. Nothing is sent to the cluster yet.
 */
export async function connectCluster(choice: ConnectionChoice): Promise<Connection> {
  const client = await loadClient();
  const resolved = resolveKubeconfig(client.k8s, choice);
  const api = new PodApi(
    client.k8s,
    resolved.kubeConfig,
    resolved.namespace,
    resolved.server,
    choice.requestTimeoutMs,
  );
  return {
    client,
    api,
    description: `${resolved.source}, context ${resolved.contextName}, server ${resolved.server}, namespace ${resolved.namespace}`,
  };
}
