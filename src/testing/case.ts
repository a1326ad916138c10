/**
 * One conformance case and the plan that decides which cases apply to a context. Pure: nothing
 * here registers tests or touches a context, so the planning rules are testable on their own.
 * @module
 */
import type { ContextCapabilities, ContextHandle, ExecutionContext } from '../contract/types.js';
import type { BooleanCapability } from './capability-shape.js';
import type { Fixture } from './fixture.js';
import type { ResolvedOptions } from './options.js';

/** What a case body gets. */
export interface CaseScope {
  readonly fx: Fixture;
  readonly context: ExecutionContext;
  /** The run's main handle. */
  readonly handle: ContextHandle;
  /** A fresh directory for this case (created when the context has a shell). */
  readonly dir: string;
  /** Adds a line to the case's report (e.g. a check this backend cannot support, and why). */
  note(message: string): Promise<void>;
}

/** One check of the contract, with a stable id that `expectedFailures` can name. */
export interface ConformanceCase {
  /** `section/name`, stable across releases. */
  readonly id: string;
  /** What the case proves, for the report. */
  readonly title: string;
  /** Registered only when every one of these capabilities is claimed. */
  readonly needs: readonly BooleanCapability[];
  /** Registered only when every one of these capabilities is NOT claimed. */
  readonly needsAbsent?: readonly BooleanCapability[] | undefined;
  /** Further condition on the options (e.g. spilling is on). */
  readonly when?: ((options: ResolvedOptions) => boolean) | undefined;
  /**
   * Registered only when the context has these optional methods that no capability switches
   * (`readFileRange`): a backend that has the method must honor it; one without it is not judged.
   */
  readonly needsMethods?: readonly (keyof ExecutionContext)[] | undefined;
  /** Capabilities marked exercised when the case starts; default `needs` and `needsAbsent`. */
  readonly exercises?: readonly BooleanCapability[] | undefined;
  readonly run: (scope: CaseScope) => Promise<void>;
}

/** A named group of cases, registered as one `describe` block. */
export interface ConformanceSection {
  readonly name: string;
  readonly cases: readonly ConformanceCase[];
}

/**
 * Whether `c` applies to a context with `capabilities`, run with `options`.
 * @param context - the context itself, for `needsMethods` (a case needing methods never applies
 * without it).
 */
export function caseApplies(
  c: ConformanceCase,
  capabilities: ContextCapabilities,
  options: ResolvedOptions,
  context?: ExecutionContext,
): boolean {
  if (!c.needs.every((cap) => capabilities[cap] === true)) return false;
  if (!(c.needsMethods ?? []).every((method) => typeof context?.[method] === 'function')) return false;
  if (!(c.needsAbsent ?? []).every((cap) => capabilities[cap] !== true)) return false;
  return c.when ? c.when(options) : true;
}

/** Capabilities a case marks exercised. */
export function exercisedBy(c: ConformanceCase): readonly BooleanCapability[] {
  return c.exercises ?? [...c.needs, ...(c.needsAbsent ?? [])];
}

/** Problems with an `expectedFailures` list: ids the suite does not define or that do not apply. */
export interface ExpectedFailureProblems {
  readonly unknown: readonly string[];
  readonly notApplicable: readonly string[];
}

/** Checks `expectedFailures` against every defined case and the ones that apply. */
export function checkExpectedFailures(
  expected: ReadonlySet<string>,
  allIds: ReadonlySet<string>,
  applicableIds: ReadonlySet<string>,
): ExpectedFailureProblems {
  const unknown: string[] = [];
  const notApplicable: string[] = [];
  for (const id of expected) {
    if (!allIds.has(id)) unknown.push(id);
    else if (!applicableIds.has(id)) notApplicable.push(id);
  }
  return { unknown, notApplicable };
}

/** Records which claimed capabilities a started case exercised. */
export class ExerciseTracker {
  private readonly exercised = new Set<BooleanCapability>();
  private readonly claimed: readonly BooleanCapability[];

  constructor(claimed: readonly BooleanCapability[]) {
    this.claimed = claimed;
  }

  mark(capabilities: readonly BooleanCapability[]): void {
    for (const cap of capabilities) this.exercised.add(cap);
  }

  /** Claimed capabilities no case has exercised (yet). */
  missing(): BooleanCapability[] {
    return this.claimed.filter((cap) => !this.exercised.has(cap));
  }
}

/** The suite's verdict on a case listed in `expectedFailures` whose body did not throw. */
export class StaleExpectedFailureError extends Error {
  constructor(id: string) {
    super(
      `${id} is listed in expectedFailures but passed: remove it from expectedFailures (a stale entry hides a regression)`,
    );
    this.name = 'StaleExpectedFailureError';
  }
}

/**
 * Runs `body` under the case deadline. For an expected failure, a throw (or the deadline) is the
 * expected outcome and is returned; a pass throws {@link StaleExpectedFailureError}.
 */
export async function runCaseBody(
  id: string,
  body: () => Promise<void>,
  options: { expectedFailure: boolean; timeoutMs: number },
): Promise<{ expectedError: unknown } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${id} did not finish within ${options.timeoutMs} ms (hung?)`)),
      options.timeoutMs,
    );
  });
  try {
    if (!options.expectedFailure) {
      await Promise.race([body(), deadline]);
      return undefined;
    }
    try {
      await Promise.race([body(), deadline]);
    } catch (error) {
      return { expectedError: error };
    }
    throw new StaleExpectedFailureError(id);
  } finally {
    clearTimeout(timer);
  }
}
