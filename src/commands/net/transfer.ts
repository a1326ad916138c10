/**
 * A whole transfer as `curl` and `wget` make it: the exchange, redirects followed by hand (each
 * target checked against the allowlist by {@link exchange} before it is contacted), under one
 * deadline that also carries the command's cancellation.
 * @module
 */
import type { NetworkPolicy } from './allowlist.js';
import {
  discardBody,
  exchange,
  type HttpRequest,
  type HttpResponse,
  NetFailure,
  redirectTarget,
} from './http-exchange.js';

export interface TransferSpec {
  readonly policy: NetworkPolicy;
  readonly request: HttpRequest;
  /** Follow redirects (curl `-L`; wget always). */
  readonly follow: boolean;
  /** Most redirects to follow (already bounded by the policy). */
  readonly maxRedirects: number;
  readonly signal: AbortSignal;
  /** Hears every response that is followed past (a redirect), before its body is dropped. */
  readonly onRedirect?: ((response: HttpResponse, next: HttpRequest) => Promise<void>) | undefined;
  /** Hears every request before it is sent (verbose output). */
  readonly onRequest?: ((request: HttpRequest) => Promise<void>) | undefined;
}

export interface TransferResult {
  readonly response: HttpResponse;
  /** The request that produced `response`. */
  readonly request: HttpRequest;
  readonly redirects: number;
}

/** Run the exchange and its redirects; the final response's body is the caller's to read. */
export async function transfer(spec: TransferSpec): Promise<TransferResult> {
  let request = spec.request;
  let redirects = 0;
  for (;;) {
    await spec.onRequest?.(request);
    const response = await exchange(spec.policy, request, spec.signal);
    const target = spec.follow ? redirectTarget(response, request) : undefined;
    if (target === undefined) return { response, request, redirects };
    if (redirects >= spec.maxRedirects) {
      await discardBody(response.body);
      throw new NetFailure('redirects', `Maximum (${spec.maxRedirects}) redirects followed`, response.url);
    }
    await spec.onRedirect?.(response, target.next);
    await discardBody(response.body);
    request = target.next;
    redirects += 1;
  }
}

/** A deadline of `ms` joined with `signal`; `clear` when the transfer is done. */
export function deadline(
  signal: AbortSignal,
  ms: number,
): { readonly signal: AbortSignal; readonly expired: () => boolean; clear(): void } {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new Error('deadline')), ms);
  return {
    signal: AbortSignal.any([signal, timer.signal]),
    expired: () => timer.signal.aborted,
    clear: () => clearTimeout(handle),
  };
}
