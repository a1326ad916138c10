/**
 * `berth/daytona`: a sandbox per handle on the official `@daytonaio/sdk` (an optional peer dependency).
 * @module
 */

export {
  createDaytonaContext,
  type DaytonaContext,
  type DaytonaContextOptions,
} from '../contexts/daytona/daytona-context.js';
export type {
  DaytonaClient,
  DaytonaFileSystem,
  DaytonaProcess,
  DaytonaPtyHandle,
  DaytonaSandbox,
  DaytonaSdk,
} from '../contexts/daytona/sdk-surface.js';
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
