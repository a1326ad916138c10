/**
 * The RBAC permissions the Kubernetes context needs in its namespace (the Role in
 * docs/kubernetes.md grants exactly these), and a check of them with SelfSubjectAccessReview,
 * which any authenticated user may ask about themselves.
 * @module
 */
import { connectCluster } from './connection.js';
import { type KubernetesContextOptions, resolveKubernetesOptions } from './context-options.js';
import type { PodApi } from './pod-api.js';

/** One permission: a verb on a resource (with subresource). */
export interface Permission {
  readonly verb: string;
  readonly resource: string;
  /** What berth uses it for. */
  readonly why: string;
}

/** Every permission berth's Kubernetes context uses. */
export const REQUIRED_PERMISSIONS: readonly Permission[] = Object.freeze([
  { verb: 'create', resource: 'pods', why: 'spawn' },
  { verb: 'get', resource: 'pods', why: "reading a pod's state" },
  { verb: 'list', resource: 'pods', why: 'sweep' },
  { verb: 'watch', resource: 'pods', why: 'waiting for a pod to be ready or gone' },
  { verb: 'patch', resource: 'pods', why: 'the heartbeat annotation' },
  { verb: 'delete', resource: 'pods', why: 'destroy and sweep' },
  { verb: 'create', resource: 'pods/exec', why: 'every command (the WebSocket exec)' },
  {
    verb: 'get',
    resource: 'pods/exec',
    why: 'every command, on API servers before 1.31 that authorize the upgrade as get',
  },
]);

/** The API server's answer for one permission. */
export interface PermissionReview {
  readonly permission: Permission;
  readonly allowed: boolean;
  /** The authorizer's reason, when it gave one (RBAC gives one when it allows). */
  readonly reason: string;
}

/** What {@link checkKubernetesAccess} found. */
export interface KubernetesAccess {
  /** Where the kubeconfig came from, the context, the server and the namespace. */
  readonly description: string;
  readonly namespace: string;
  /** The API server's `gitVersion`, e.g. `v1.31.2`. */
  readonly serverVersion: string;
  readonly permissions: readonly PermissionReview[];
}

/**
 * Reach the cluster of the kubeconfig (as kubectl resolves it) and ask, for each permission the
 * context needs, whether these credentials have it in the namespace. Creates nothing.
 * @throws KubernetesClientMissingError, KubeconfigError, KubernetesUnavailableError, or
 *   KubernetesApiError (e.g. 401 for refused credentials), each saying what to do.
 */
export async function checkKubernetesAccess(
  options?: Pick<KubernetesContextOptions, 'kubeconfig' | 'context' | 'namespace' | 'requestTimeoutMs'>,
): Promise<KubernetesAccess> {
  const resolved = resolveKubernetesOptions(
    options,
    ['kubeconfig', 'context', 'namespace', 'requestTimeoutMs'],
    'checkKubernetesAccess',
  );
  const { api, description } = await connectCluster(resolved);
  const serverVersion = await api.version();
  return { description, namespace: api.namespace, serverVersion, permissions: await checkPermissions(api) };
}

/** Whether the credentials may do each permission in the namespace (SelfSubjectAccessReview). */
export async function checkPermissions(api: PodApi): Promise<PermissionReview[]> {
  const authorization = api.kubeConfig.makeApiClient(api.k8s.AuthorizationV1Api);
  return Promise.all(
    REQUIRED_PERMISSIONS.map(async (permission) => {
      const [resource, subresource] = permission.resource.split('/');
      const review = await api.request(
        { verb: 'create', resource: 'selfsubjectaccessreviews' },
        undefined,
        (options) =>
          authorization.createSelfSubjectAccessReview(
            {
              body: {
                apiVersion: 'authorization.k8s.io/v1',
                kind: 'SelfSubjectAccessReview',
                spec: {
                  resourceAttributes: {
                    namespace: api.namespace,
                    verb: permission.verb,
                    resource,
                    ...(subresource === undefined ? {} : { subresource }),
                  },
                },
              },
            },
            options,
          ),
      );
      return {
        permission,
        allowed: review.status?.allowed === true,
        reason: review.status?.reason ?? '',
      };
    }),
  );
}
