/**
 * `berth/e2b`: a sandbox per handle on the official `e2b` SDK (an optional peer dependency), and
 * the subprocess seam in one E2B sandbox.
 * @module
 */

export { createE2BContext, type E2BContext, type E2BContextOptions } from '../contexts/e2b/e2b-context.js';
export type {
  E2BCommandHandle,
  E2BCommands,
  E2BFiles,
  E2BPty,
  E2BSandbox,
  E2BSdk,
} from '../contexts/e2b/sdk-surface.js';
export {
  E2BSubprocessRuntime,
  type E2BSubprocessRuntimeOptions,
} from '../contexts/e2b/subprocess-runtime.js';
export {
  RemoteAuthError,
  RemoteNetworkError,
  RemoteQuotaError,
  RemoteSdkMissingError,
  RemoteServiceError,
  SandboxGoneError,
} from '../contexts/remote/errors.js';
export type { RemoteContext } from '../contexts/remote/remote-context.js';
export type { RemoteLimitOptions } from '../contexts/remote/remote-options.js';
