/**
 * `berth/testing`: the conformance suite every backend passes, for vitest.
 * @module
 */
export {
  BOOLEAN_CAPABILITIES,
  type BooleanCapability,
  CAPABILITY_METHODS,
  ISOLATION_KINDS,
} from '../testing/capability-shape.js';
export {
  type CaseScope,
  type ConformanceCase,
  type ConformanceSection,
  caseApplies,
  type ExpectedFailureProblems,
  StaleExpectedFailureError,
} from '../testing/case.js';
export type { Fixture } from '../testing/fixture.js';
export type {
  ConformanceOptions,
  HandleVisibility,
  LeftoverPolicy,
  SpillLocation,
} from '../testing/options.js';
export {
  type OrphanSoakOptions,
  runOrphanSoak,
  SOAK_SCENARIOS,
  type SoakHost,
  type SoakReport,
  type SoakRun,
  type SoakScenario,
  type SoakScenarioSummary,
} from '../testing/orphan-soak.js';
export type { PlantedProcess, ProcessWatch } from '../testing/process-watch.js';
export { CONFORMANCE_SECTIONS } from '../testing/sections/index.js';
export { conformanceCaseIds, runConformanceSuite } from '../testing/suite.js';
