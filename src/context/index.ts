/**
 * `berth`: the ExecutionContext contract, shared by every backend.
 * @module
 */
export * from '../errors/index.js';
export type * from './types.js';
