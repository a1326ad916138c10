/**
 * `berth/sandbox`: OS isolation for host commands (bubblewrap on Linux, sandbox-exec on macOS) and
 * its preflight. The policy is plain data; the sandbox takes argv and returns argv, and fails closed.
 * @module
 */
export * from '../errors/index.js';
export { assertWritable } from './assert-writable.js';
export { PROC_READ_ONLY } from './bwrap-mounts.js';
export {
  type ConfineOptions,
  confineCommand,
  confineWithBubblewrap,
  confineWithSandboxExec,
} from './confine-command.js';
export { createSandboxPolicy, type SandboxPolicyOptions } from './create-policy.js';
export {
  DEFAULT_HIDDEN_HOME_PATHS,
  DEFAULT_HIDDEN_SYSTEM_PATHS,
  DEFAULT_READ_ONLY_PATHS,
  type DefaultHiddenPathsInput,
  defaultHiddenPaths,
} from './default-paths.js';
export { formatSandboxReport } from './format-report.js';
export { type ProbeSandboxOptions, probeSandbox } from './probe.js';
export { CONTAINER_STATE_DIRS } from './read-only-root.js';
export {
  generateSandboxExecProfile,
  SANDBOX_EXEC_PATH,
  type SandboxExecProfile,
  type SandboxExecProfileOptions,
  sandboxExecArgv,
} from './sandbox-exec-profile.js';
export type * from './types.js';
export { resolveWritableRoots } from './writable-roots.js';
