/**
 * Typed errors of the remote sandbox contexts. Each names the provider, carries the SDK's own
 * error as `cause`, and says what to do. Providers classify their SDK's errors into these (see
 * each provider's `classify`), so a caller handles every service the same way.
 * @module
 */
import { BerthError } from '../../errors/index.js';

/** Which remote service. */
export type RemoteProviderName = 'e2b' | 'daytona';

const LABEL: Record<RemoteProviderName, string> = { e2b: 'E2B', daytona: 'Daytona' };

/** The provider's label for messages: `E2B`, `Daytona`. */
export function providerLabel(provider: RemoteProviderName): string {
  return LABEL[provider];
}

/** The provider's SDK (an optional peer dependency of berth) is not installed or failed to load. */
export class RemoteSdkMissingError extends BerthError {
  readonly provider: RemoteProviderName;
  /** The npm package to install. */
  readonly packageName: string;
  constructor(
    provider: RemoteProviderName,
    packageName: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      'E_REMOTE_SDK_MISSING',
      `the ${providerLabel(provider)} context needs the package ${packageName}, which could not be loaded (${detail}); install it next to berth: \`npm install ${packageName}\``,
      options,
    );
    this.provider = provider;
    this.packageName = packageName;
  }
}

/** The service refused the credentials (missing, wrong or revoked API key). */
export class RemoteAuthError extends BerthError {
  readonly provider: RemoteProviderName;
  constructor(provider: RemoteProviderName, detail: string, fix: string, options?: { cause?: unknown }) {
    super('E_REMOTE_AUTH', `${providerLabel(provider)} refused the credentials (${detail}); ${fix}`, options);
    this.provider = provider;
  }
}

/** A limit of the account was reached: concurrent sandboxes, rate, credit, disk. */
export class RemoteQuotaError extends BerthError {
  readonly provider: RemoteProviderName;
  constructor(provider: RemoteProviderName, detail: string, options?: { cause?: unknown }) {
    super(
      'E_REMOTE_QUOTA',
      `${providerLabel(provider)} refused for a quota or rate limit (${detail}); destroy handles you no longer need (each is a sandbox), wait and retry, or raise the account's limits`,
      options,
    );
    this.provider = provider;
  }
}

/** The handle's sandbox is gone: killed, timed out at the service, deleted behind berth's back. */
export class SandboxGoneError extends BerthError {
  readonly provider: RemoteProviderName;
  readonly sandboxId: string;
  constructor(
    provider: RemoteProviderName,
    sandboxId: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      'E_SANDBOX_GONE',
      `${providerLabel(provider)} sandbox ${sandboxId} is no longer running (${detail}); destroy this handle and spawn a new one (raise the sandbox timeout if it expired)`,
      options,
    );
    this.provider = provider;
    this.sandboxId = sandboxId;
  }
}

/** The service could not be reached, or the connection broke mid-call. */
export class RemoteNetworkError extends BerthError {
  readonly provider: RemoteProviderName;
  constructor(provider: RemoteProviderName, detail: string, options?: { cause?: unknown }) {
    super(
      'E_REMOTE_NETWORK',
      `${providerLabel(provider)} could not be reached (${detail}); check the network and the service's status, then retry (the sandbox may still be running: reconnect to it by id)`,
      options,
    );
    this.provider = provider;
  }
}

/** The service refused or failed a call for another reason; the message is the service's own. */
export class RemoteServiceError extends BerthError {
  readonly provider: RemoteProviderName;
  /** HTTP status, when the SDK reported one. */
  readonly statusCode: number | undefined;
  constructor(
    provider: RemoteProviderName,
    detail: string,
    statusCode: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      'E_REMOTE',
      `${providerLabel(provider)} failed a request${statusCode === undefined ? '' : ` (HTTP ${statusCode})`}: ${detail}`,
      options,
    );
    this.provider = provider;
    this.statusCode = statusCode;
  }
}

/** The message of anything thrown, for a detail clause. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0]!.slice(0, 300);
  return String(error).slice(0, 300);
}

/** Error codes of Node's network stack that mean "the service could not be reached". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** True when `error` (or a cause of it) is a transport failure of Node or undici. */
export function isNetworkFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (current instanceof TypeError && /fetch failed|network/i.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
