/**
 * `berth/subprocess`: the local process seam (explicit spawn specs, bounded collection with head,
 * tail and spill, offset readers, tree-scoped verified termination, the host-exit finalizer,
 * scrubbed environments, PTYs through the optional `node-pty`).
 * @module
 */
export type { LocalProcessHandle } from '../subprocess/local-process-handle.js';
export { LocalSubprocessRuntime, type LocalSubprocessRuntimeOptions } from '../subprocess/local-runtime.js';
export type { LocalTerminalHandle } from '../subprocess/local-terminal.js';
export { findExecutable } from '../subprocess/resolve-executable.js';
export { SubprocessRuntime } from '../subprocess/runtime.js';
export type { SpillDiscardReason } from '../subprocess/spill-file.js';
export { ensureSupervisor } from '../subprocess/supervisor-location.js';
export type * from '../subprocess/types.js';
