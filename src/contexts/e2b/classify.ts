/**
 * E2B's errors as berth's typed remote errors. Matched by the SDK's class names (the classes come
 * from a lazily loaded module, and a test fake throws the same classes), status codes, and Node's
 * network error codes.
 * @module
 */
import { BerthError } from '../../errors/index.js';
import {
  isNetworkFailure,
  messageOf,
  RemoteAuthError,
  RemoteNetworkError,
  RemoteQuotaError,
  RemoteServiceError,
  SandboxGoneError,
} from '../remote/errors.js';

const AUTH_FIX = 'set E2B_API_KEY (or the apiKey option) to a key from the API Keys tab of the E2B dashboard';

function chainNames(error: unknown): string[] {
  const names: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    let proto = Object.getPrototypeOf(current) as { constructor?: { name?: string } } | null;
    while (proto && proto !== Error.prototype) {
      if (proto.constructor?.name) names.push(proto.constructor.name);
      proto = Object.getPrototypeOf(proto) as typeof proto;
    }
    names.push(current.name);
    current = current.cause;
  }
  return names;
}

/** An error thrown by the E2B SDK, as a typed berth error. */
export function classifyE2BError(error: unknown, sandboxId = '(not created)'): Error {
  // berth's own errors (a missing SDK, a refused argument) are already typed.
  if (error instanceof BerthError) return error;
  const names = chainNames(error);
  const detail = messageOf(error);
  const status = (error as { statusCode?: unknown }).statusCode;
  const statusCode = typeof status === 'number' ? status : undefined;
  if (names.includes('AuthenticationError') || statusCode === 401 || statusCode === 403)
    return new RemoteAuthError('e2b', detail, AUTH_FIX, { cause: error });
  if (
    names.includes('RateLimitError') ||
    names.includes('ServiceBusyError') ||
    names.includes('NotEnoughSpaceError') ||
    statusCode === 402 ||
    statusCode === 429
  )
    return new RemoteQuotaError('e2b', detail, { cause: error });
  if (
    names.includes('SandboxNotFoundError') ||
    /sandbox .*(?:not found|was killed|end of life)/i.test(detail)
  )
    return new SandboxGoneError('e2b', sandboxId, detail, { cause: error });
  if (names.includes('TimeoutError') && /unavailable|not running|killed|sandbox timeout/i.test(detail))
    return new SandboxGoneError('e2b', sandboxId, detail, { cause: error });
  if (
    isNetworkFailure(error) ||
    (names.includes('TimeoutError') && /requestTimeoutMs|canceled/i.test(detail))
  )
    return new RemoteNetworkError('e2b', detail, { cause: error });
  return new RemoteServiceError('e2b', detail, statusCode, { cause: error });
}
