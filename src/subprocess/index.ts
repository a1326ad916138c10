/**
 * `berth/subprocess`: the local process seam. Explicit spawn specs, bounded collection with spill
 * files, offset readers, tree-scoped verified termination, a scrubbed environment, terminals.
 * @module
 */
export * from '../errors/index.js';
export { validateCollect } from './collect-spec.js';
export { HeadTailBuffer, type HeadTailSlice } from './head-tail-buffer.js';
export { OutputCollector, type OutputCollectorOptions } from './output-collector.js';
export { createPrivateDir, removePrivateDir } from './private-dir.js';
export { type SpillDiscardReason, SpillFile } from './spill-file.js';
export * from './types.js';
export {
  alignStartForward,
  completePrefixEnd,
  cutAtCodePoint,
  decodeUtf8,
  isContinuationByte,
} from './utf8-boundary.js';
