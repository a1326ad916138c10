/**
 * `runConformanceSuite`: registers the whole ExecutionContext contract as vitest tests against one
 * context. Sections are gated by the declared capabilities, and the run fails when a claimed
 * capability went unexercised, when a listed expected failure passes, or when the list names a
 * case that does not exist or does not apply.
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOLEAN_CAPABILITIES, type BooleanCapability } from './capability-shape.js';
import {
  type ConformanceSection,
  caseApplies,
  checkExpectedFailures,
  ExerciseTracker,
  exercisedBy,
  runCaseBody,
} from './case.js';
import { Fixture } from './fixture.js';
import { type ConformanceOptions, resolveConformanceOptions } from './options.js';
import { CONFORMANCE_SECTIONS } from './sections/index.js';
import { mustSettleWithin } from './wait-until.js';

/** Extra time vitest allows beyond the suite's own per-case deadline, so ours reports first. */
const VITEST_SLACK_MS = 15_000;

/** Every case id the suite defines, for building an `expectedFailures` list. */
export function conformanceCaseIds(sections: readonly ConformanceSection[] = CONFORMANCE_SECTIONS): string[] {
  return sections.flatMap((section) => section.cases.map((c) => c.id));
}

/**
 * Registers the conformance suite for one backend in the calling test file.
 *
 * The context is created once while vitest collects the file (its `capabilities` decide which
 * cases exist); a main handle is spawned in `beforeAll`; everything is destroyed in `afterAll`,
 * which then fails the run if a claimed capability was not exercised.
 *
 * @example
 * ```ts
 * import { runConformanceSuite } from 'berth/testing';
 * runConformanceSuite({
 *   name: 'my-backend',
 *   createContext: () => createMyContext({ maxOutputBytes: 65536, maxSpillBytes: 1 << 20 }),
 *   outputPolicy: { maxOutputBytes: 65536, maxSpillBytes: 1 << 20 },
 *   spillLocation: 'host',
 * });
 * ```
 */
export function runConformanceSuite(
  options: ConformanceOptions,
  sections: readonly ConformanceSection[] = CONFORMANCE_SECTIONS,
): void {
  const resolved = resolveConformanceOptions(options);
  describe(`${resolved.name} conformance`, async () => {
    // Collection has no timeout of its own: bound the factory so a stuck backend fails, not hangs.
    const context = await mustSettleWithin(
      `${resolved.name}: createContext()`,
      Promise.resolve().then(() => resolved.createContext()),
      resolved.caseTimeoutMs,
    );
    const capabilities = context.capabilities;
    const claimed: BooleanCapability[] = BOOLEAN_CAPABILITIES.filter((cap) => capabilities[cap] === true);
    const tracker = new ExerciseTracker(claimed);
    const fx = new Fixture(context, resolved);
    const allIds = new Set(conformanceCaseIds(sections));
    const applicable = new Set(
      sections.flatMap((s) =>
        s.cases.filter((c) => caseApplies(c, capabilities, resolved, context)).map((c) => c.id),
      ),
    );

    beforeAll(() => fx.setUp());

    afterAll(async () => {
      try {
        await fx.tearDown();
      } finally {
        await resolved.disposeContext?.(context);
      }
      const missing = tracker.missing();
      if (missing.length > 0) {
        throw new Error(
          `${resolved.name} claims ${missing.map((cap) => `capabilities.${cap}`).join(', ')} but no case exercising ${
            missing.length === 1 ? 'it' : 'them'
          } passed (filtered, failed, or listed in expectedFailures): a claimed capability must pass at least one case for the run to count`,
        );
      }
    });

    it('suite/expected-failures: every listed id exists and applies to this context', () => {
      const { unknown, notApplicable } = checkExpectedFailures(resolved.expectedFailures, allIds, applicable);
      const complaints = [
        ...(unknown.length > 0
          ? [`ids this suite does not define (a typo, or a renamed case): ${unknown.join(', ')}`]
          : []),
        ...(notApplicable.length > 0
          ? [
              `cases that do not run against this context's capabilities (remove them): ${notApplicable.join(', ')}`,
            ]
          : []),
      ];
      if (complaints.length > 0) expect.fail(`expectedFailures lists ${complaints.join('; and ')}`);
    });

    for (const section of sections) {
      const cases = section.cases.filter((c) => applicable.has(c.id));
      if (cases.length === 0) continue;
      describe(section.name, () => {
        for (const c of cases) {
          const expectedFailure = resolved.expectedFailures.has(c.id);
          const name = `${c.id}: ${c.title}${expectedFailure ? ' [expected failure]' : ''}`;
          it(
            name,
            async (testContext) => {
              const outcome = await runCaseBody(
                c.id,
                async () => {
                  const dir = await fx.caseDir(c.id);
                  const note = async (message: string) => {
                    await testContext.annotate(message);
                  };
                  await c.run({ fx, context, handle: fx.main, dir, note });
                },
                { expectedFailure, timeoutMs: resolved.caseTimeoutMs },
              );
              // Only a case that ran and passed shows a claimed capability works: an expected
              // failure exercises nothing (a backend cannot claim a capability and list its cases).
              if (!expectedFailure) tracker.mark(exercisedBy(c));
              if (outcome) {
                const reason =
                  outcome.expectedError instanceof Error
                    ? outcome.expectedError.message
                    : String(outcome.expectedError);
                await testContext.annotate(`expected failure: ${reason.slice(0, 2000)}`);
              }
            },
            resolved.caseTimeoutMs + VITEST_SLACK_MS,
          );
        }
      });
    }
  });
}
