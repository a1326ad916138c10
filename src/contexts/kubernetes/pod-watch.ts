/**
 * Waiting on one pod with the client library's `Watch`, from a resourceVersion: every state the
 * pod passes through is judged as it arrives; a watch the server ends is resumed from the last
 * resourceVersion seen, and one the server calls too old (410 Gone) is resumed after a fresh GET.
 * The whole wait has one deadline, and each watch request's head has the request deadline.
 * @module
 */
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import type { PodApi } from './pod-api.js';

/** A verdict on one observed state of the pod: keep waiting (undefined) or settle. */
export type PodJudge<T> = (pod: V1Pod | null) => { readonly done: T } | { readonly fail: Error } | undefined;

/**
 * The library's `Watch` replaces the signal of its request with its own controller, which it
 * hands back only after the response head arrived: a server that never answers would hold the
 * watch forever. Its fetch options come from the kubeconfig, so berth gives it a kubeconfig whose
 * options carry berth's signal in a property the library cannot overwrite.
 */
function kubeConfigWithSignal(kubeConfig: KubeConfig, signal: AbortSignal): KubeConfig {
  return new Proxy(kubeConfig, {
    get(target, property, receiver) {
      if (property === 'applyToFetchOptions') {
        return async (options: object) => {
          const applied = (await target.applyToFetchOptions(options)) as object;
          Object.defineProperty(applied, 'signal', {
            get: () => signal,
            set: () => undefined,
            enumerable: true,
          });
          return applied;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Watch `name` until `judge` settles, starting after `resourceVersion` (the state the caller has
 * already judged). A pod that disappears is judged as null.
 * @param onTimeout - the error when `timeoutMs` passes first.
 */
export async function waitForPod<T>(
  api: PodApi,
  name: string,
  resourceVersion: string | undefined,
  judge: PodJudge<T>,
  timeoutMs: number,
  onTimeout: () => Error,
  signal?: AbortSignal,
): Promise<T> {
  const overall = new AbortController();
  const timer = setTimeout(() => overall.abort(onTimeout()), timeoutMs);
  const stopOnCaller = () => overall.abort(signal?.reason);
  signal?.addEventListener('abort', stopOnCaller, { once: true });
  let rv = resourceVersion;
  try {
    for (;;) {
      if (overall.signal.aborted) throw overall.signal.reason;
      if (rv === undefined) {
        const pod = await api.getPod(name, overall.signal);
        const verdict = judge(pod);
        if (verdict !== undefined) return settle(verdict);
        rv = pod?.metadata?.resourceVersion;
      }
      const round = await watchOnce(api, name, rv, judge, overall.signal);
      if (round.kind === 'verdict') return settle(round.verdict);
      if (round.kind === 'ended') rv = round.rv ?? rv;
      else rv = undefined; // expired or failed: a fresh GET (which names an unreachable server)
      // A watch that ended on its own is resumed at once; one that failed after a short pause.
      if (round.kind === 'failed') await pause(500, overall.signal);
    }
  } catch (error) {
    if (overall.signal.aborted) throw overall.signal.reason ?? error;
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stopOnCaller);
  }
}

function settle<T>(verdict: { readonly done: T } | { readonly fail: Error }): T {
  if ('fail' in verdict) throw verdict.fail;
  return verdict.done;
}

type Round<T> =
  | { kind: 'verdict'; verdict: { readonly done: T } | { readonly fail: Error } }
  | { kind: 'ended'; rv: string | undefined }
  | { kind: 'expired' }
  | { kind: 'failed' };

async function watchOnce<T>(
  api: PodApi,
  name: string,
  rv: string | undefined,
  judge: PodJudge<T>,
  overall: AbortSignal,
): Promise<Round<T>> {
  const round = new AbortController();
  const stop = () => round.abort(overall.reason);
  overall.addEventListener('abort', stop, { once: true });
  // The head of the watch response must come within the request deadline.
  const headTimer = setTimeout(() => round.abort(new Error('no watch response head')), api.requestTimeoutMs);
  let lastRv = rv;
  try {
    return await new Promise<Round<T>>((resolve, reject) => {
      let settled = false;
      const finish = (value: Round<T>) => {
        if (settled) return;
        settled = true;
        round.abort();
        resolve(value);
      };
      const watch = new api.k8s.Watch(kubeConfigWithSignal(api.kubeConfig, round.signal));
      watch
        .watch(
          `/api/v1/namespaces/${encodeURIComponent(api.namespace)}/pods`,
          {
            fieldSelector: `metadata.name=${name}`,
            resourceVersion: rv,
            allowWatchBookmarks: true,
            timeoutSeconds: 300,
          },
          (type: string, object: V1Pod & { code?: number }) => {
            if (type === 'ERROR') {
              finish(object.code === 410 ? { kind: 'expired' } : { kind: 'failed' });
              return;
            }
            lastRv = object.metadata?.resourceVersion ?? lastRv;
            if (type === 'BOOKMARK') return;
            const verdict = judge(type === 'DELETED' ? null : object);
            if (verdict !== undefined) finish({ kind: 'verdict', verdict });
          },
          (error: unknown) => {
            if (settled) return;
            if (overall.aborted) {
              settled = true;
              reject(overall.reason);
              return;
            }
            if (error === null || error === undefined || (error as Error).name === 'AbortError') {
              finish(round.signal.aborted ? { kind: 'failed' } : { kind: 'ended', rv: lastRv });
              return;
            }
            const code = (error as { statusCode?: number }).statusCode;
            if (code === 403 || code === 401) {
              settled = true;
              reject(api.refusal(code, { verb: 'watch', resource: 'pods' }));
              return;
            }
            finish({ kind: 'failed' });
          },
        )
        .then(
          () => clearTimeout(headTimer),
          () => clearTimeout(headTimer),
        );
    });
  } finally {
    clearTimeout(headTimer);
    overall.removeEventListener('abort', stop);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
