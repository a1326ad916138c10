/**
 * Daytona's errors as berth's typed remote errors, by the SDK's class names and status codes.
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

const AUTH_FIX =
  'set DAYTONA_API_KEY (or the apiKey option) to a key from the Daytona dashboard, and DAYTONA_API_URL when you use your own Daytona';

function names(error: unknown): string[] {
  const found: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    let proto = Object.getPrototypeOf(current) as { constructor?: { name?: string } } | null;
    while (proto && proto !== Error.prototype) {
      if (proto.constructor?.name) found.push(proto.constructor.name);
      proto = Object.getPrototypeOf(proto) as typeof proto;
    }
    found.push(current.name);
    current = current.cause;
  }
  return found;
}

/** An error thrown by the Daytona SDK, as a typed berth error. */
export function classifyDaytonaError(error: unknown, sandboxId = '(not created)'): Error {
  // berth's own errors (a missing SDK, a refused argument) are already typed.
  if (error instanceof BerthError) return error;
  const classes = names(error);
  const detail = messageOf(error);
  const status = (error as { statusCode?: unknown }).statusCode;
  const statusCode = typeof status === 'number' ? status : undefined;
  if (
    /quota|limit exceeded|insufficient/i.test(detail) ||
    classes.includes('DaytonaRateLimitError') ||
    statusCode === 429
  )
    return new RemoteQuotaError('daytona', detail, { cause: error });
  if (
    classes.includes('DaytonaAuthenticationError') ||
    classes.includes('DaytonaForbiddenError') ||
    statusCode === 401 ||
    statusCode === 403 ||
    /API key is required/i.test(detail)
  )
    return new RemoteAuthError('daytona', detail, AUTH_FIX, { cause: error });
  if (
    classes.includes('DaytonaConnectionError') ||
    classes.includes('DaytonaConnectionTimeoutError') ||
    isNetworkFailure(error)
  )
    return new RemoteNetworkError('daytona', detail, { cause: error });
  if (
    /sandbox .*(?:not found|not running|is stopped|destroyed|archived)/i.test(detail) ||
    ((classes.includes('DaytonaNotFoundError') || classes.includes('DaytonaGoneError')) &&
      /sandbox/i.test(detail))
  )
    return new SandboxGoneError('daytona', sandboxId, detail, { cause: error });
  return new RemoteServiceError('daytona', detail, statusCode, { cause: error });
}
