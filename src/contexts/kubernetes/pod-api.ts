/**
 * The pod endpoints berth uses, on the client library's `CoreV1Api`, each with a deadline (an
 * `AbortSignal` set on the request by a middleware) and with the API server's refusals turned into
 * typed errors: RBAC (naming the verb and resource), quota, unreachable or hung, anything else.
 * @module
 */
import type { CoreV1Api, KubeConfig, V1Pod, V1PodList } from '@kubernetes/client-node';
import {
  KubernetesApiError,
  KubernetesForbiddenError,
  KubernetesQuotaError,
  KubernetesUnavailableError,
} from './errors.js';
import type { KubernetesClient } from './load-client.js';

/** What a request is, for messages and for naming a missing RBAC permission. */
export interface RequestLabel {
  readonly verb: string;
  /** Resource with subresource, e.g. `pods`, `pods/exec`. */
  readonly resource: string;
}

/** A Status object as the API server sends it (parsed leniently). */
interface StatusBody {
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
}

// "... cannot create resource "pods/exec" in API group "" in the namespace "ns""
const FORBIDDEN = /cannot (\S+) resource "([^"]+)"/;

/** The Status in an error body (a JSON string, a parsed object, or nothing). */
export function statusOf(body: unknown): StatusBody {
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as unknown;
      return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : { message: body };
    } catch {
      return { message: body.slice(0, 500) };
    }
  }
  return typeof body === 'object' && body !== null ? (body as StatusBody) : {};
}

/**
 * The typed error for an API server's refusal of `label` in `namespace`: 403 is quota or RBAC
 * (the verb and resource from the server's message, else from the request), 401 is credentials.
 */
export function refusalError(
  statusCode: number,
  body: unknown,
  label: RequestLabel,
  namespace: string,
): Error {
  const status = statusOf(body);
  const message = status.message ?? '';
  if (statusCode === 403) {
    if (/exceeded quota|forbidden: failed quota|must specify limits|maximum .* usage per/i.test(message)) {
      return new KubernetesQuotaError(namespace, message);
    }
    const named = FORBIDDEN.exec(message);
    return new KubernetesForbiddenError(
      named?.[1] ?? label.verb,
      named?.[2] ?? label.resource,
      namespace,
      message || 'Forbidden',
    );
  }
  const request = `${label.verb} ${label.resource} in namespace "${namespace}"`;
  if (statusCode === 401) {
    return new KubernetesApiError(
      401,
      request,
      'Unauthorized',
      `${message || 'the credentials were refused'}; refresh the kubeconfig's credentials (\`kubectl get pods\` does it for exec plugins)`,
    );
  }
  return new KubernetesApiError(statusCode, request, status.reason ?? 'Error', message || 'no message');
}

/** One pod-scoped API session: a kubeconfig, a namespace, a request deadline. */
export class PodApi {
  readonly namespace: string;
  readonly server: string;
  readonly kubeConfig: KubeConfig;
  readonly k8s: KubernetesClient;
  /** Deadline for one request's answer (a watch's response head; not the stream after it). */
  readonly requestTimeoutMs: number;
  private readonly core: CoreV1Api;

  constructor(
    k8s: KubernetesClient,
    kubeConfig: KubeConfig,
    namespace: string,
    server: string,
    requestTimeoutMs: number,
  ) {
    this.k8s = k8s;
    this.kubeConfig = kubeConfig;
    this.namespace = namespace;
    this.server = server;
    this.requestTimeoutMs = requestTimeoutMs;
    this.core = kubeConfig.makeApiClient(k8s.CoreV1Api);
  }

  /** Create the pod; resolves with the server's copy (its resourceVersion included). */
  createPod(pod: V1Pod, signal?: AbortSignal): Promise<V1Pod> {
    return this.request({ verb: 'create', resource: 'pods' }, signal, (options) =>
      this.core.createNamespacedPod({ namespace: this.namespace, body: pod }, options),
    );
  }

  /** The pod, or null when it does not exist. */
  async getPod(name: string, signal?: AbortSignal): Promise<V1Pod | null> {
    try {
      return await this.request({ verb: 'get', resource: 'pods' }, signal, (options) =>
        this.core.readNamespacedPod({ name, namespace: this.namespace }, options),
      );
    } catch (error) {
      if (error instanceof KubernetesApiError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /** Pods matching a label selector, with the list's resourceVersion. */
  listPods(labelSelector: string, signal?: AbortSignal): Promise<V1PodList> {
    return this.request({ verb: 'list', resource: 'pods' }, signal, (options) =>
      this.core.listNamespacedPod({ namespace: this.namespace, labelSelector }, options),
    );
  }

  /** Delete the pod with a grace period (0 = force); false when it was already gone. */
  async deletePod(name: string, graceSeconds: number, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.request({ verb: 'delete', resource: 'pods' }, signal, (options) =>
        this.core.deleteNamespacedPod(
          {
            name,
            namespace: this.namespace,
            gracePeriodSeconds: graceSeconds,
            body: { gracePeriodSeconds: graceSeconds },
          },
          options,
        ),
      );
      return true;
    } catch (error) {
      if (error instanceof KubernetesApiError && error.statusCode === 404) return false;
      throw error;
    }
  }

  /** Merge-patch the pod's annotations. */
  async annotatePod(name: string, annotations: Record<string, string>, signal?: AbortSignal): Promise<void> {
    await this.request(
      { verb: 'patch', resource: 'pods' },
      signal,
      (options) =>
        this.core.patchNamespacedPod(
          { name, namespace: this.namespace, body: { metadata: { annotations } } },
          options,
        ),
      'application/merge-patch+json',
    );
  }

  /** The server's version (`GET /version`): proves it is reachable and speaks the API. */
  async version(signal?: AbortSignal): Promise<string> {
    const api = this.kubeConfig.makeApiClient(this.k8s.VersionApi);
    const info = await this.request({ verb: 'get', resource: 'version' }, signal, (options) =>
      api.getCode(options),
    );
    return info.gitVersion;
  }

  /** The typed error for a refusal of `label` with `statusCode` (no body known). */
  refusal(statusCode: number, label: RequestLabel, body?: unknown): Error {
    return refusalError(statusCode, body, label, this.namespace);
  }

  /** A request's deadline and the caller's signal, as one signal. */
  deadline(signal?: AbortSignal): AbortSignal {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  }

  /** The error for a request that failed on the way (not refused by the server). */
  transportError(label: RequestLabel, error: unknown, signal?: AbortSignal): Error {
    if (
      signal?.aborted &&
      !(signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError')
    ) {
      return signal.reason instanceof Error ? signal.reason : new Error('aborted');
    }
    const name = (error as { name?: string }).name;
    const detail =
      name === 'AbortError' || name === 'TimeoutError'
        ? `no answer within requestTimeoutMs=${this.requestTimeoutMs}`
        : (error as Error).message;
    return new KubernetesUnavailableError(this.server, `${label.verb} ${label.resource}`, detail, {
      cause: error,
    });
  }

  /**
   * Per-request options for the generated client: the deadline (and the caller's signal), and a
   * content type where the request needs one.
   */
  requestOptions(signal?: AbortSignal, contentType?: string): object {
    const bounded = this.deadline(signal);
    // The object API runs middleware on the generated client's own Observable type.
    const { Observable } = this.k8s;
    return {
      middleware: [
        {
          pre: (context: {
            setSignal(signal: AbortSignal): void;
            setHeaderParam(key: string, value: string): void;
          }) => {
            context.setSignal(bounded);
            if (contentType !== undefined) context.setHeaderParam('Content-Type', contentType);
            return new Observable(Promise.resolve(context));
          },
          post: (response: unknown) => new Observable(Promise.resolve(response)),
        },
      ],
      middlewareMergeStrategy: 'append',
    };
  }

  /** Send one request with the deadline; refusals and transport failures become typed errors. */
  async request<T>(
    label: RequestLabel,
    signal: AbortSignal | undefined,
    send: (options: object) => Promise<T>,
    contentType?: string,
  ): Promise<T> {
    const options = this.requestOptions(signal, contentType);
    try {
      return await send(options);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (error instanceof this.k8s.ApiException && typeof code === 'number') {
        throw refusalError(code, (error as { body?: unknown }).body, label, this.namespace);
      }
      throw this.transportError(label, error, signal);
    }
  }
}
