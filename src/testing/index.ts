/**
 * `berth/testing`: the ExecutionContext conformance suite. A backend's test file calls
 * {@link runConformanceSuite} with a factory for its context; the suite registers vitest tests for
 * every capability the context claims. Needs `vitest` (an optional peer dependency).
 * @module
 */
export {
  BOOLEAN_CAPABILITIES,
  type BooleanCapability,
  CAPABILITY_METHODS,
  capabilityShapeProblems,
  describeShapeProblems,
  ISOLATION_KINDS,
  type ShapeProblem,
} from './capability-shape.js';
export {
  type CaseScope,
  type ConformanceCase,
  type ConformanceSection,
  caseApplies,
  checkExpectedFailures,
  ExerciseTracker,
  type ExpectedFailureProblems,
  runCaseBody,
  StaleExpectedFailureError,
} from './case.js';
export type { Fixture } from './fixture.js';
export { killMarked, pidsWithMarker, waitForNoMarker } from './host-markers.js';
export {
  type ConformanceOptions,
  type HandleVisibility,
  type LeftoverPolicy,
  type ResolvedOptions,
  resolveConformanceOptions,
  type SpillLocation,
} from './options.js';
export {
  type OrphanSoakOptions,
  runOrphanSoak,
  SOAK_SCENARIOS,
  type SoakHost,
  type SoakReport,
  type SoakRun,
  type SoakScenario,
  type SoakScenarioSummary,
  supportedScenarios,
} from './orphan-soak.js';
export type { PlantedProcess, ProcessWatch } from './process-watch.js';
export { CONFORMANCE_SECTIONS } from './sections/index.js';
export { conformanceCaseIds, runConformanceSuite } from './suite.js';
