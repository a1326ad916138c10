/**
 * Loading a provider's SDK, an optional peer dependency of berth, only when a context needs it:
 * `npm install berth` stays small, and a missing SDK is a typed error naming the package.
 * @module
 */
import { type RemoteProviderName, RemoteSdkMissingError } from './errors.js';

/** `import(packageName)`, or `RemoteSdkMissingError` saying what to install. */
export async function loadSdk<T>(provider: RemoteProviderName, packageName: string): Promise<T> {
  try {
    return (await import(packageName)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const detail =
      code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
        ? 'it is not installed'
        : `loading it failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    throw new RemoteSdkMissingError(provider, packageName, detail, { cause: error });
  }
}
