/**
 * `berth/sandbox`: the OS sandbox (bubblewrap on Linux, sandbox-exec on macOS): a policy, a probe
 * of what works on this machine, and the confinement of one command. It fails closed.
 * @module
 */
export { type ConfineOptions, confineCommand } from '../sandbox/confine-command.js';
export { createSandboxPolicy, type SandboxPolicyOptions } from '../sandbox/create-policy.js';
export {
  DEFAULT_HIDDEN_HOME_PATHS,
  DEFAULT_HIDDEN_SYSTEM_PATHS,
  DEFAULT_READ_ONLY_PATHS,
} from '../sandbox/default-paths.js';
export { formatSandboxReport } from '../sandbox/format-report.js';
export { type ProbeSandboxOptions, probeSandbox } from '../sandbox/probe.js';
export type * from '../sandbox/types.js';
