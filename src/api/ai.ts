/**
 * `berth/ai`: the agent tools as Vercel AI SDK tools.
 * @module
 */
export * from '../ai/index.js';
