/**
 * `createDaytonaContext`: the ExecutionContext contract on Daytona sandboxes through the official
 * `@daytonaio/sdk` (an optional peer dependency, loaded on the first `spawn`). One sandbox per
 * handle; `destroy` deletes it.
 * @module
 */
import {
  booleanOption,
  byteCount,
  durationMs,
  knownOptions,
  optionalString,
  optionKeys,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { loadSdk } from '../remote/load-sdk.js';
import { createRemoteContext, type RemoteContext, type RemoteProvider } from '../remote/remote-context.js';
import { REMOTE_LIMIT_KEYS, type RemoteLimitOptions, resolveRemoteLimits } from '../remote/remote-options.js';
import { classifyDaytonaError } from './classify.js';
import { DaytonaRemoteSandbox } from './daytona-sandbox.js';
import type { DaytonaClient, DaytonaSdk } from './sdk-surface.js';

/** Options of {@link createDaytonaContext}. Every field is optional. */
export interface DaytonaContextOptions extends RemoteLimitOptions {
  /** API key; default `DAYTONA_API_KEY` (read by the SDK). */
  readonly apiKey?: string | undefined;
  /** API URL; default `DAYTONA_API_URL`, else the SDK's. */
  readonly apiUrl?: string | undefined;
  /** Target region; default `DAYTONA_TARGET`, else the SDK's. */
  readonly target?: string | undefined;
  /** Snapshot every sandbox starts from; default the SDK's. */
  readonly snapshot?: string | undefined;
  /** Environment of every sandbox (beneath a handle's `env`). */
  readonly envVars?: Readonly<Record<string, string>> | undefined;
  /** Labels of every sandbox (berth adds `berth: "1"`). */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Minutes of inactivity before Daytona stops a sandbox; 0 = never; default the service's (15). */
  readonly autoStopMinutes?: number | undefined;
  /** Block all network access of commands; default false. */
  readonly networkBlockAll?: boolean | undefined;
  /** Deadline for creating a sandbox, in ms (sent as seconds); default 60000. */
  readonly createTimeoutMs?: number | undefined;
  /** The SDK module to use instead of `import('@daytonaio/sdk')`. */
  readonly sdk?: DaytonaSdk | undefined;
}

export const DAYTONA_OPTION_KEYS = optionKeys<DaytonaContextOptions>({
  ...Object.fromEntries(REMOTE_LIMIT_KEYS.map((key) => [key, true])),
  apiKey: true,
  apiUrl: true,
  target: true,
  snapshot: true,
  envVars: true,
  labels: true,
  autoStopMinutes: true,
  networkBlockAll: true,
  createTimeoutMs: true,
  sdk: true,
} as Record<keyof DaytonaContextOptions, true>);

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

/** The Daytona context: the contract plus `reconnect`, `sandboxId` and `close`. */
export type DaytonaContext = RemoteContext;

/**
 * Create a Daytona context. Nothing is loaded or contacted until the first `spawn`.
 * @throws InvalidArgumentError when an option is malformed or unknown (with a did-you-mean).
 */
export function createDaytonaContext(options?: DaytonaContextOptions): DaytonaContext {
  const input = knownOptions(options, 'options', DAYTONA_OPTION_KEYS, 'createDaytonaContext');
  const limits = resolveRemoteLimits(input);
  const config = {
    apiKey: optionalString(input.apiKey, 'apiKey'),
    apiUrl: optionalString(input.apiUrl, 'apiUrl'),
    target: optionalString(input.target, 'target'),
  };
  const snapshot = optionalString(input.snapshot, 'snapshot');
  const envVars = stringRecord(input.envVars, 'envVars') ?? {};
  const labels = { ...stringRecord(input.labels, 'labels'), berth: '1' };
  const autoStopMinutes =
    input.autoStopMinutes === undefined
      ? undefined
      : byteCount(input.autoStopMinutes, 'autoStopMinutes', 0, true);
  const networkBlockAll = booleanOption(input.networkBlockAll, 'networkBlockAll', false);
  const createTimeoutMs = durationMs(input.createTimeoutMs, 'createTimeoutMs', 60_000);
  if (
    input.sdk !== undefined &&
    (typeof input.sdk !== 'object' || input.sdk === null || !input.sdk.Daytona)
  ) {
    throw new InvalidArgumentError(
      'sdk',
      'must be the @daytonaio/sdk module (or an object with its Daytona class)',
    );
  }
  let client: Promise<DaytonaClient> | undefined;
  const connected = () => {
    client ??= (
      input.sdk ? Promise.resolve(input.sdk) : loadSdk<DaytonaSdk>('daytona', '@daytonaio/sdk')
    ).then(
      (module) =>
        new module.Daytona({
          ...(config.apiKey ? { apiKey: config.apiKey } : {}),
          ...(config.apiUrl ? { apiUrl: config.apiUrl } : {}),
          ...(config.target ? { target: config.target } : {}),
        }),
    );
    client.catch(() => {
      client = undefined;
    });
    return client;
  };
  const provider: RemoteProvider = {
    type: 'daytona',
    network: !networkBlockAll,
    async create(spawn) {
      const daytona = await connected();
      const sandbox = await daytona.create(
        {
          ...(snapshot ? { snapshot } : {}),
          envVars: { ...envVars, ...spawn.env },
          labels,
          ...(autoStopMinutes === undefined ? {} : { autoStopInterval: autoStopMinutes }),
          networkBlockAll,
        },
        { timeout: Math.ceil(createTimeoutMs / 1000) },
      );
      return new DaytonaRemoteSandbox(sandbox);
    },
    async connect(sandboxId) {
      const daytona = await connected();
      return new DaytonaRemoteSandbox(await daytona.get(sandboxId));
    },
    classify: classifyDaytonaError,
  };
  return createRemoteContext(provider, limits, 'createDaytonaContext');
}
