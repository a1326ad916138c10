/**
 * State shared by the tools of one set (one context handle).
 * @module
 */
import type { ToolSession } from './types.js';

/** A fresh session; `createTools` makes one and hands it to every tool it builds. */
export function createToolSession(): ToolSession {
  return {
    ripgrep: undefined,
    settledTaskIds: new Set(),
    savedOutputs: 0,
    outputDir: undefined,
    fileLocks: new Map(),
    seenFiles: new Map(),
  };
}
