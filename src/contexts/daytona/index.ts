/**
 * `berth/daytona`: the ExecutionContext contract on Daytona sandboxes. Needs the `@daytonaio/sdk`
 * package (an optional peer dependency: `npm install @daytonaio/sdk`).
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
export { classifyDaytonaError } from './classify.js';
export {
  createDaytonaContext,
  DAYTONA_OPTION_KEYS,
  type DaytonaContext,
  type DaytonaContextOptions,
} from './daytona-context.js';
export type {
  DaytonaClient,
  DaytonaFileSystem,
  DaytonaProcess,
  DaytonaPtyHandle,
  DaytonaSandbox,
  DaytonaSdk,
} from './sdk-surface.js';
