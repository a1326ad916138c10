/**
 * `berth/subprocess`: the local process seam. Explicit spawn specs, bounded collection with spill
 * files, offset readers, tree-scoped verified termination, a scrubbed environment, terminals.
 * @module
 */
export * from '../errors/index.js';
export { validateCollect } from './collect-spec.js';
export { registerTreeForExit, unregisterTreeForExit } from './exit-finalizer.js';
export { HeadTailBuffer, type HeadTailSlice } from './head-tail-buffer.js';
export { LocalProcessHandle } from './local-process-handle.js';
export { LocalSubprocessRuntime, type LocalSubprocessRuntimeOptions } from './local-runtime.js';
export { LocalTerminalHandle } from './local-terminal.js';
export { OutputCollector, type OutputCollectorOptions } from './output-collector.js';
export {
  createPrivateDir,
  type FileIdentity,
  openPrivateDirectory,
  PrivateDirectory,
  privateBase,
  removePrivateDir,
} from './private-dir.js';
export {
  isDefunct,
  type ProcStat,
  parseProcStat,
  procAvailable,
  readProcStat,
  scanProcesses,
  scanProcessesShared,
} from './proc-stat.js';
export { ProcessTree, signalGroup, signalPid } from './process-tree.js';
export { loadPty, type PtyModule, type PtyProcess } from './pty-loader.js';
export { findExecutable, resolveLocalExecutable } from './resolve-executable.js';
export { SubprocessRuntime } from './runtime.js';
export {
  CLOUD_PROVIDER_PREFIXES,
  CREDENTIAL_NAME_PATTERNS,
  childEnv,
  credentialShapedValue,
  isCredentialShapedName,
  isManagedName,
  scrubbedParentEnv,
} from './scrubbed-env.js';
export { SECRET_CONNECTION_KEYS, SECRET_TOKEN_PREFIXES } from './secret-values.js';
export { MAX_TIMER_MS, validateSpawnSpec, validateTerminalSpec } from './spawn-spec.js';
export { type SpillDiscardReason, SpillFile, type SpillTarget } from './spill-file.js';
export { ensureSupervisor } from './supervisor-location.js';
export { killTreeNow, terminateTree, waitForTreeGone } from './terminate-tree.js';
export * from './types.js';
export {
  alignStartForward,
  completePrefixEnd,
  cutAtCodePoint,
  decodeUtf8,
  isContinuationByte,
} from './utf8-boundary.js';
