/**
 * `berth/tools`: the agent tools over any ExecutionContext.
 * @module
 */
export * from '../tools/index.js';
