/**
 * Typed errors of the Kubernetes context. Each carries a stable `code` from `BerthErrorCode`, the
 * values involved, and a message that says what to do.
 * @module
 */
import { BerthError } from '../../errors/index.js';

/** The package name berth loads lazily, as a user installs it. */
export const CLIENT_PACKAGE = '@kubernetes/client-node';

/** `@kubernetes/client-node` is not installed (or failed to load): it is an optional peer. */
export class KubernetesClientMissingError extends BerthError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      'E_KUBERNETES_CLIENT_MISSING',
      `the kubernetes context needs the optional peer dependency ${CLIENT_PACKAGE} 1.x, which could not be loaded (${detail}); install it next to berth with \`npm install ${CLIENT_PACKAGE}@1\` (the 2.x line needs Node 22)`,
      options,
    );
  }
}

/** No usable kubeconfig: none found, unreadable, or the named context/cluster/user is missing. */
export class KubeconfigError extends BerthError {
  /** Where berth looked, in order (files, then the in-cluster service account). */
  readonly searched: readonly string[];
  constructor(detail: string, searched: readonly string[], fix: string, options?: { cause?: unknown }) {
    super('E_KUBECONFIG', `${detail} (looked at: ${searched.join(', ') || 'nothing'}); ${fix}`, options);
    this.searched = searched;
  }
}

/** The API server could not be reached, or did not answer within the deadline. */
export class KubernetesUnavailableError extends BerthError {
  /** The API server's URL from the kubeconfig. */
  readonly server: string;
  /** `METHOD path` of the request that failed, e.g. `POST pods`. */
  readonly request: string;
  constructor(server: string, request: string, detail: string, options?: { cause?: unknown }) {
    super(
      'E_KUBERNETES_UNAVAILABLE',
      `the Kubernetes API server at ${server} is not reachable for ${request} (${detail}); check the cluster is up and the kubeconfig's server and credentials (\`kubectl cluster-info\`), or raise requestTimeoutMs if it is only slow`,
      options,
    );
    this.server = server;
    this.request = request;
  }
}

/** RBAC refused a request. `verb` and `resource` name the permission that is missing. */
export class KubernetesForbiddenError extends BerthError {
  readonly verb: string;
  /** Resource with subresource, e.g. `pods` or `pods/exec`. */
  readonly resource: string;
  readonly namespace: string;
  /** The API server's own message. */
  readonly serverMessage: string;
  constructor(verb: string, resource: string, namespace: string, serverMessage: string) {
    super(
      'E_KUBERNETES_FORBIDDEN',
      `the cluster's RBAC does not allow "${verb}" on "${resource}" in namespace "${namespace}" for berth's credentials (${serverMessage}); grant it with the Role in docs/kubernetes.md (\`kubectl auth can-i ${verb} ${resource} -n ${namespace}\` checks it)`,
    );
    this.verb = verb;
    this.resource = resource;
    this.namespace = namespace;
    this.serverMessage = serverMessage;
  }
}

/** A ResourceQuota (or LimitRange) of the namespace refused the pod. */
export class KubernetesQuotaError extends BerthError {
  readonly namespace: string;
  readonly serverMessage: string;
  constructor(namespace: string, serverMessage: string) {
    super(
      'E_KUBERNETES_QUOTA',
      `namespace "${namespace}" has no room for another pod under its quota (${serverMessage}); destroy handles you no longer need, lower resources in spawn(), or ask for a larger quota (\`kubectl describe resourcequota -n ${namespace}\`)`,
    );
    this.namespace = namespace;
    this.serverMessage = serverMessage;
  }
}

/** The API server answered with an error berth has no more specific class for. */
export class KubernetesApiError extends BerthError {
  readonly statusCode: number;
  readonly request: string;
  /** The Status `reason`, e.g. `AlreadyExists`, `Invalid`. */
  readonly reason: string;
  readonly serverMessage: string;
  constructor(statusCode: number, request: string, reason: string, serverMessage: string) {
    super(
      'E_KUBERNETES_API',
      `the Kubernetes API server refused ${request} with HTTP ${statusCode} ${reason}: ${serverMessage}`,
    );
    this.statusCode = statusCode;
    this.request = request;
    this.reason = reason;
    this.serverMessage = serverMessage;
  }
}

/** The pod's image cannot be pulled (`ErrImagePull`, `ImagePullBackOff`, `InvalidImageName`). */
export class PodImagePullError extends BerthError {
  readonly image: string;
  readonly pod: string;
  /** The kubelet's waiting reason. */
  readonly reason: string;
  constructor(pod: string, image: string, reason: string, detail: string) {
    super(
      'E_POD_IMAGE_PULL',
      `pod ${pod} cannot pull image ${JSON.stringify(image)} (${reason}: ${detail || 'no message'}); check the image name and tag, that the nodes can reach its registry, and the pod's imagePullSecrets (podTemplate.spec.imagePullSecrets)`,
    );
    this.image = image;
    this.pod = pod;
    this.reason = reason;
  }
}

/** Why a pod did not become ready. */
export type PodStartFailure = 'timeout' | 'unschedulable' | 'container-failed' | 'config' | 'pod-failed';

/** The pod did not become ready: it timed out, cannot be scheduled, or its container failed. */
export class PodStartError extends BerthError {
  readonly pod: string;
  readonly failure: PodStartFailure;
  constructor(pod: string, failure: PodStartFailure, detail: string, fix: string) {
    super('E_POD_START', `pod ${pod} did not become ready (${detail}); ${fix}`);
    this.pod = pod;
    this.failure = failure;
  }
}

/** The node evicted the pod (memory or disk pressure, a drain): its commands ended with it. */
export class PodEvictedError extends BerthError {
  readonly pod: string;
  constructor(pod: string, detail: string) {
    super(
      'E_POD_EVICTED',
      `pod ${pod} was evicted (${detail || 'no message'}); its processes and files are gone: destroy this handle and spawn a new one (set resources so the pod is not first in line, or use a PodDisruptionBudget)`,
    );
    this.pod = pod;
  }
}

/** The handle's pod was deleted or stopped behind berth's back. */
export class PodGoneError extends BerthError {
  readonly pod: string;
  constructor(pod: string, detail: string, options?: { cause?: unknown }) {
    super(
      'E_POD_GONE',
      `pod ${pod} is no longer running (${detail}); destroy this handle and spawn a new one`,
      options,
    );
    this.pod = pod;
  }
}
