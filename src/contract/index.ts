/**
 * `berth`: the ExecutionContext contract, shared by every backend.
 * @module
 */
export * from '../errors/index.js';
export {
  type BackgroundMachinery,
  BackgroundRegistry,
  type OwnerCallbacks,
  type RegisterOptions,
  type TaskOutcome,
} from './background-registry.js';
export { callListener } from './call-listener.js';
export * from './defaults.js';
export {
  type CapturedStream,
  collectSpecFor,
  OutputCapture,
  type OutputCaptureOptions,
  omissionMarker,
  settle,
} from './output-capture.js';
export type * from './types.js';
export * from './validate-options.js';
