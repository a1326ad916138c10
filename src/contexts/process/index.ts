/**
 * `berth/process`: the host-process backend of the ExecutionContext contract.
 * @module
 */
export * from '../../errors/index.js';
export type { ProcessContextOptions, ProcessOverlayOptions } from './options.js';
export { createProcessContext, ProcessContext } from './process-context.js';
