/**
 * `berth/process`: the host backend, optionally inside the OS sandbox.
 * @module
 */
export type { ProcessContextOptions, ProcessOverlayOptions } from '../contexts/process/options.js';
export { createProcessContext, type ProcessContext } from '../contexts/process/process-context.js';
