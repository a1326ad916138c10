/**
 * `berth/e2b`: the ExecutionContext contract on E2B sandboxes, and the subprocess seam running in
 * one. Needs the `e2b` package (an optional peer dependency: `npm install e2b`).
 * @module
 */
export * from '../../errors/index.js';
export {
  RemoteAuthError,
  RemoteNetworkError,
  RemoteQuotaError,
  RemoteSdkMissingError,
  RemoteServiceError,
  SandboxGoneError,
} from '../remote/errors.js';
export type { RemoteContext } from '../remote/remote-context.js';
export type { RemoteLimitOptions } from '../remote/remote-options.js';
export { STREAM_QUEUE_WARN_BYTES } from '../remote/stream-queue.js';
export { classifyE2BError } from './classify.js';
export { createE2BContext, E2B_OPTION_KEYS, type E2BContext, type E2BContextOptions } from './e2b-context.js';
export type {
  E2BCommandHandle,
  E2BCommands,
  E2BFiles,
  E2BPty,
  E2BSandbox,
  E2BSdk,
} from './sdk-surface.js';
export { E2BSubprocessRuntime, type E2BSubprocessRuntimeOptions } from './subprocess-runtime.js';
