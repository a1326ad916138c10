/**
 * What a backend hands the conformance suite, and the one place those options are checked.
 * @module
 */

import type { ExecutionContext, OutputPolicy, SpawnConfig } from '../contract/types.js';
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { InvalidArgumentError } from '../errors/index.js';

/** Where the files named by `StreamFacts.spillPath` live. */
export type SpillLocation = 'host' | 'context';

/** Options of {@link runConformanceSuite}. */
export interface ConformanceOptions {
  /** Names the top-level `describe` block, e.g. `process` or `docker (runsc)`. */
  readonly name: string;
  /** Builds the context under test. Called once, while vitest collects the file. */
  readonly createContext: () => ExecutionContext | Promise<ExecutionContext>;
  /** Releases the context after every test ran (e.g. closes an engine connection). */
  readonly disposeContext?: ((context: ExecutionContext) => void | Promise<void>) | undefined;
  /**
   * Passed to every `spawn` the suite makes. A function is called per handle, so each handle can
   * get its own fresh directory. Default: `spawn()` with no config.
   */
  readonly spawnConfig?: SpawnConfig | (() => SpawnConfig | Promise<SpawnConfig>) | undefined;
  /** The output policy the context was created with; the output section tests its exact edges. */
  readonly outputPolicy: OutputPolicy;
  /**
   * Where spill files live. `host`: the suite reads them with the host's `fs` (and checks their
   * mode). `context`: through the context's own `readFileBytes`/`readFile`. Required when
   * `maxSpillBytes > 0`, because a path alone does not say which filesystem it names.
   */
  readonly spillLocation?: SpillLocation | undefined;
  /**
   * The root file methods are contained to, when the context claims `containment`. Default: the
   * cwd of the handle the suite spawns first. Every handle's cwd must lie inside it.
   */
  readonly workspaceRoot?: string | undefined;
  /**
   * Address at which commands in the context reach the test process, for the network probe.
   * Default `127.0.0.1` (right for host backends; a container on the default bridge needs the
   * bridge gateway, e.g. `172.17.0.1`).
   */
  readonly networkHost?: string | undefined;
  /**
   * Case ids known to fail on this backend. Each still runs: a listed case that fails is reported
   * as an expected failure, a listed case that passes fails the run (remove the stale entry), and
   * an id the suite does not define fails the run.
   */
  readonly expectedFailures?: readonly string[] | undefined;
  /**
   * Upper bound for one case, in ms, proving "did not hang" (default 60000). A case still running
   * at this point fails with a message naming the case.
   */
  readonly caseTimeoutMs?: number | undefined;
  /**
   * Whether one handle can watch another's processes (through a shared process table or a shared
   * file such as a heartbeat): `shared` (default) or `isolated`. The destroy cases watch a
   * destroyed handle's tree from another handle; with `isolated` they check what can be seen from
   * outside (calls settle, `onExit` reports `killed`). Either way a mismatch with what the suite
   * observes fails the case, so the declaration cannot hide a defect.
   */
  readonly handles?: HandleVisibility | undefined;
  /**
   * What becomes of a process a command leaves running after the command returns: the context
   * ends it then (`ended-on-return`), or it runs until the handle is destroyed
   * (`kept-until-destroy`, the default). A mismatch with what the suite observes fails the case.
   */
  readonly leftovers?: LeftoverPolicy | undefined;
}

/** See {@link ConformanceOptions.handles}. */
export type HandleVisibility = 'shared' | 'isolated';
/** See {@link ConformanceOptions.leftovers}. */
export type LeftoverPolicy = 'ended-on-return' | 'kept-until-destroy';

/** Options after validation, with defaults applied. */
export interface ResolvedOptions {
  readonly name: string;
  readonly createContext: () => ExecutionContext | Promise<ExecutionContext>;
  readonly disposeContext: ((context: ExecutionContext) => void | Promise<void>) | undefined;
  readonly spawnConfig: () => Promise<SpawnConfig | undefined>;
  readonly outputPolicy: OutputPolicy;
  readonly spillLocation: SpillLocation | undefined;
  readonly workspaceRoot: string | undefined;
  readonly networkHost: string;
  readonly expectedFailures: ReadonlySet<string>;
  readonly caseTimeoutMs: number;
  readonly handles: HandleVisibility;
  readonly leftovers: LeftoverPolicy;
}

const CONFORMANCE_OPTION_KEYS = optionKeys<ConformanceOptions>({
  name: true,
  createContext: true,
  disposeContext: true,
  spawnConfig: true,
  outputPolicy: true,
  spillLocation: true,
  workspaceRoot: true,
  networkHost: true,
  expectedFailures: true,
  caseTimeoutMs: true,
  handles: true,
  leftovers: true,
});

const MAX_CONFORMANCE_OUTPUT_BYTES = 16 * 1024 * 1024;

function positiveInteger(value: unknown, field: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    throw new InvalidArgumentError(field, `expected an integer in 1..${max}, got ${String(value)}`);
  }
  return value;
}

/** Checks `options` and applies defaults; throws `InvalidArgumentError` naming the bad field. */
export function resolveConformanceOptions(options: ConformanceOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', `expected an object, got ${String(options)}`);
  }
  knownOptions(options, 'options', CONFORMANCE_OPTION_KEYS, 'runConformanceSuite');
  if (typeof options.name !== 'string' || options.name.trim() === '') {
    throw new InvalidArgumentError('name', 'expected a non-empty string naming the backend');
  }
  if (typeof options.createContext !== 'function') {
    throw new InvalidArgumentError('createContext', 'expected a function returning the context to test');
  }
  if (options.disposeContext !== undefined && typeof options.disposeContext !== 'function') {
    throw new InvalidArgumentError('disposeContext', 'expected a function or undefined');
  }
  const policy = options.outputPolicy;
  if (typeof policy !== 'object' || policy === null) {
    throw new InvalidArgumentError(
      'outputPolicy',
      'expected the { maxOutputBytes, maxSpillBytes } the context was created with',
    );
  }
  // The output section writes a few multiples of the caps; keep them small enough to stay quick.
  positiveInteger(policy.maxOutputBytes, 'outputPolicy.maxOutputBytes', MAX_CONFORMANCE_OUTPUT_BYTES);
  if (policy.maxSpillBytes !== 0) {
    positiveInteger(policy.maxSpillBytes, 'outputPolicy.maxSpillBytes', 4 * MAX_CONFORMANCE_OUTPUT_BYTES);
  }
  if (policy.maxSpillBytes > 0 && options.spillLocation === undefined) {
    throw new InvalidArgumentError(
      'spillLocation',
      "spilling is on (outputPolicy.maxSpillBytes > 0); say where spill files live: 'host' or 'context'",
    );
  }
  if (
    options.spillLocation !== undefined &&
    options.spillLocation !== 'host' &&
    options.spillLocation !== 'context'
  ) {
    throw new InvalidArgumentError(
      'spillLocation',
      `expected 'host' or 'context', got ${String(options.spillLocation)}`,
    );
  }
  if (options.workspaceRoot !== undefined) {
    if (typeof options.workspaceRoot !== 'string' || !options.workspaceRoot.startsWith('/')) {
      throw new InvalidArgumentError(
        'workspaceRoot',
        `expected an absolute path, got ${String(options.workspaceRoot)}`,
      );
    }
  }
  if (
    options.networkHost !== undefined &&
    (typeof options.networkHost !== 'string' || options.networkHost === '')
  ) {
    throw new InvalidArgumentError('networkHost', 'expected a host name or address');
  }
  const expected = options.expectedFailures ?? [];
  if (!Array.isArray(expected) || expected.some((id) => typeof id !== 'string')) {
    throw new InvalidArgumentError('expectedFailures', 'expected an array of case ids');
  }
  const caseTimeoutMs =
    options.caseTimeoutMs === undefined
      ? 60_000
      : positiveInteger(options.caseTimeoutMs, 'caseTimeoutMs', 3_600_000);
  const handles = oneOf(options.handles, 'handles', ['shared', 'isolated'] as const, 'shared');
  const leftovers = oneOf(
    options.leftovers,
    'leftovers',
    ['ended-on-return', 'kept-until-destroy'] as const,
    'kept-until-destroy',
  );
  const config = options.spawnConfig;
  if (config !== undefined && typeof config !== 'object' && typeof config !== 'function') {
    throw new InvalidArgumentError(
      'spawnConfig',
      'expected a SpawnConfig, a function returning one, or undefined',
    );
  }
  return {
    name: options.name,
    createContext: options.createContext,
    disposeContext: options.disposeContext,
    spawnConfig: async () => (typeof config === 'function' ? await config() : config),
    outputPolicy: { maxOutputBytes: policy.maxOutputBytes, maxSpillBytes: policy.maxSpillBytes },
    spillLocation: options.spillLocation,
    workspaceRoot: options.workspaceRoot?.replace(/(.)\/+$/, '$1'),
    networkHost: options.networkHost ?? '127.0.0.1',
    expectedFailures: new Set(expected),
    caseTimeoutMs,
    handles,
    leftovers,
  };
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidArgumentError(
    field,
    `expected ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${String(value)}`,
  );
}
