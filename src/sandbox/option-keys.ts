/**
 * The names each sandbox options object and the policy accept, checked against the types at compile
 * time: a misspelt key (`hiddenPath`, `readOnlyPath`) must fail, never silently weaken the sandbox.
 * @module
 */
import { optionKeys } from '../contract/validate-options.js';
import type { ConfineOptions } from './confine-command.js';
import type { SandboxPolicyOptions } from './create-policy.js';
import type { ProbeSandboxOptions } from './probe.js';
import type { SandboxExecProfileOptions } from './sandbox-exec-profile.js';
import type { SandboxPolicy } from './types.js';

export const POLICY_KEYS = optionKeys<SandboxPolicy>({
  writableRoots: true,
  network: true,
  hiddenPaths: true,
  readOnlyPaths: true,
  unixSockets: true,
  bwrapPath: true,
});
export const POLICY_OPTION_KEYS = optionKeys<SandboxPolicyOptions>({
  writableRoots: true,
  network: true,
  hiddenPaths: true,
  readOnlyPaths: true,
  defaultHiddenPaths: true,
  defaultReadOnlyPaths: true,
  home: true,
  env: true,
  unixSockets: true,
  bwrapPath: true,
});
export const CONFINE_OPTION_KEYS = optionKeys<ConfineOptions>({ cwd: true, terminal: true });
export const PROBE_OPTION_KEYS = optionKeys<ProbeSandboxOptions>({ bwrapPath: true, timeoutMs: true });
export const PROFILE_OPTION_KEYS = optionKeys<SandboxExecProfileOptions>({ resolveSymlinks: true });
