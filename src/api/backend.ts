/**
 * `berth/backend`: what an author of a new backend needs to implement the contract the way the
 * built-in backends do: the background-task registry, the shared output policy, the option
 * validators (with did-you-mean for unknown names), the subprocess spec validators, the
 * credential scrubbing of child environments and the private directories for logs and spills. Run the result through `berth/testing`.
 * @module
 */
export {
  type BackgroundMachinery,
  BackgroundRegistry,
  type BackgroundStdin,
  type OwnerCallbacks,
  type RegisterOptions,
  type TaskOutcome,
} from '../contract/background-registry.js';
export { callListener } from '../contract/call-listener.js';
export {
  type CapturedStream,
  collectSpecFor,
  OutputCapture,
  type OutputCaptureOptions,
  omissionMarker,
  settle,
} from '../contract/output-capture.js';
export {
  abortSignal,
  argvArray,
  booleanOption,
  byteCount,
  callback,
  closestName,
  commandString,
  describeValue,
  durationMs,
  envRecord,
  knownOptions,
  MAX_TIMER_MS,
  optionalString,
  optionKeys,
  optionsObject,
  outputPolicy,
  pathOption,
  unknownOption,
} from '../contract/validate-options.js';
export { validateCollect } from '../subprocess/collect-spec.js';
export { openPrivateDirectory, PrivateDirectory } from '../subprocess/private-dir.js';
export {
  CLOUD_PROVIDER_PREFIXES,
  CREDENTIAL_NAME_PATTERNS,
  childEnv,
  isCredentialShapedName,
  scrubbedParentEnv,
} from '../subprocess/scrubbed-env.js';
export { validateSpawnSpec, validateTerminalSpec } from '../subprocess/spawn-spec.js';
