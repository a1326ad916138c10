/**
 * `createE2BContext`: the ExecutionContext contract on E2B sandboxes through the official `e2b`
 * SDK (an optional peer dependency, loaded on the first `spawn`). One sandbox per handle.
 * @module
 */
import {
  booleanOption,
  durationMs,
  knownOptions,
  optionalString,
  optionKeys,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { loadSdk } from '../remote/load-sdk.js';
import {
  createRemoteContext,
  type RemoteContext,
  type RemoteContextInternals,
  type RemoteProvider,
} from '../remote/remote-context.js';
import { REMOTE_LIMIT_KEYS, type RemoteLimitOptions, resolveRemoteLimits } from '../remote/remote-options.js';
import { classifyE2BError } from './classify.js';
import { E2BRemoteSandbox } from './e2b-sandbox.js';
import type { E2BSdk } from './sdk-surface.js';

/** Options of {@link createE2BContext}. Every field is optional. */
export interface E2BContextOptions extends RemoteLimitOptions {
  /** API key; default `E2B_API_KEY` (read by the SDK). */
  readonly apiKey?: string | undefined;
  /** E2B domain; default `E2B_DOMAIN`, else the SDK's. */
  readonly domain?: string | undefined;
  /** Template name or id of every sandbox; default the SDK's (`base`). */
  readonly template?: string | undefined;
  /**
   * Lifetime of a sandbox at the service, in milliseconds (the SDK's `timeoutMs`): E2B ends it
   * then, whatever runs. Default 3600000 (one hour; E2B's maximum is 1 h on Hobby, 24 h on Pro).
   */
  readonly sandboxTimeoutMs?: number | undefined;
  /** Environment of every sandbox (beneath a handle's `env`). */
  readonly envs?: Readonly<Record<string, string>> | undefined;
  /** Metadata of every sandbox (berth adds `berth: "1"`). */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
  /** Whether commands may reach the internet; default true. */
  readonly allowInternetAccess?: boolean | undefined;
  /** Deadline of one SDK request (not of a command), in ms; default the SDK's (60000). */
  readonly requestTimeoutMs?: number | undefined;
  /** The SDK module to use instead of `import('e2b')` (a wrapped or instrumented build, a test double). */
  readonly sdk?: E2BSdk | undefined;
}

/** Every option {@link createE2BContext} accepts. */
export const E2B_OPTION_KEYS = optionKeys<E2BContextOptions>({
  ...Object.fromEntries(REMOTE_LIMIT_KEYS.map((key) => [key, true])),
  apiKey: true,
  domain: true,
  template: true,
  sandboxTimeoutMs: true,
  envs: true,
  metadata: true,
  allowInternetAccess: true,
  requestTimeoutMs: true,
  sdk: true,
} as Record<keyof E2BContextOptions, true>);

function stringRecord(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, 'must be an object of strings');
  }
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw new InvalidArgumentError(`${field}.${name}`, 'must be a string');
  }
  return { ...(value as Record<string, string>) };
}

/** The E2B context: the contract plus `reconnect`, `sandboxId` and `close`. */
export type E2BContext = RemoteContext;

/**
 * Create an E2B context. Nothing is loaded or contacted until the first `spawn`.
 * @throws InvalidArgumentError when an option is malformed or unknown (with a did-you-mean).
 */
export function createE2BContext(options?: E2BContextOptions): E2BContext {
  return createE2BContextWithInternals(options);
}

/** {@link createE2BContext} with the internals the subprocess runtime uses. */
export function createE2BContextWithInternals(
  options?: E2BContextOptions,
  owner = 'createE2BContext',
): E2BContext & RemoteContextInternals {
  const input = knownOptions(options, 'options', E2B_OPTION_KEYS, owner);
  const limits = resolveRemoteLimits(input);
  const apiKey = optionalString(input.apiKey, 'apiKey');
  const domain = optionalString(input.domain, 'domain');
  const template = optionalString(input.template, 'template') ?? 'base';
  const sandboxTimeoutMs = durationMs(input.sandboxTimeoutMs, 'sandboxTimeoutMs', 3_600_000);
  const requestTimeoutMs =
    input.requestTimeoutMs === undefined
      ? undefined
      : durationMs(input.requestTimeoutMs, 'requestTimeoutMs', 0);
  const envs = stringRecord(input.envs, 'envs') ?? {};
  const metadata = { ...stringRecord(input.metadata, 'metadata'), berth: '1' };
  const allowInternetAccess = booleanOption(input.allowInternetAccess, 'allowInternetAccess', true);
  if (
    input.sdk !== undefined &&
    (typeof input.sdk !== 'object' || input.sdk === null || !input.sdk.Sandbox)
  ) {
    throw new InvalidArgumentError(
      'sdk',
      'must be the e2b module (or an object with its Sandbox and CommandExitError)',
    );
  }
  let sdk: Promise<E2BSdk> | undefined = input.sdk ? Promise.resolve(input.sdk) : undefined;
  const loaded = () => {
    sdk ??= loadSdk<E2BSdk>('e2b', 'e2b');
    sdk.catch(() => {
      sdk = undefined;
    });
    return sdk;
  };
  const connection = { apiKey, domain, requestTimeoutMs };
  const provider: RemoteProvider = {
    type: 'e2b',
    network: allowInternetAccess,
    async create(config) {
      const module = await loaded();
      const sandbox = await module.Sandbox.create(template, {
        ...connection,
        envs: { ...envs, ...config.env },
        metadata,
        timeoutMs: sandboxTimeoutMs,
        allowInternetAccess,
      });
      return new E2BRemoteSandbox(module, sandbox, requestTimeoutMs);
    },
    async connect(sandboxId) {
      const module = await loaded();
      const sandbox = await module.Sandbox.connect(sandboxId, { ...connection, timeoutMs: sandboxTimeoutMs });
      return new E2BRemoteSandbox(module, sandbox, requestTimeoutMs);
    },
    classify: classifyE2BError,
  };
  return createRemoteContext(provider, limits, owner);
}
