/**
 * The SDKs are optional peer dependencies, loaded only when a context needs one: a missing one is
 * a typed error naming the package to install; creating a context loads nothing.
 */
import { describe, expect, it } from 'vitest';
import { createDaytonaContext } from '../../../src/contexts/daytona/index.js';
import { createE2BContext } from '../../../src/contexts/e2b/index.js';
import { loadSdk } from '../../../src/contexts/remote/load-sdk.js';
import { isBerthError } from '../../../src/errors/index.js';

describe('loading a provider SDK', () => {
  it('a package that is not installed is RemoteSdkMissingError with the npm install line', async () => {
    const error = await loadSdk('e2b', 'berth-no-such-sdk-package').catch((caught: unknown) => caught);
    expect(isBerthError(error, 'E_REMOTE_SDK_MISSING'), String(error)).toBe(true);
    expect((error as Error).message).toBe(
      'the E2B context needs the package berth-no-such-sdk-package, which could not be loaded (it is not installed); install it next to berth: `npm install berth-no-such-sdk-package`',
    );
    expect((error as { packageName: string }).packageName).toBe('berth-no-such-sdk-package');
  });

  it('the installed SDKs load', async () => {
    await expect(loadSdk('e2b', 'e2b')).resolves.toHaveProperty('Sandbox');
    await expect(loadSdk('daytona', '@daytonaio/sdk')).resolves.toHaveProperty('Daytona');
  });

  it('creating a context neither loads the SDK nor contacts the service', () => {
    // An sdk that would throw on any use proves nothing is touched at creation.
    const trap = new Proxy(
      {},
      {
        get: () => {
          throw new Error('touched');
        },
      },
    );
    expect(() =>
      createE2BContext({ sdk: { Sandbox: trap, CommandExitError: Error } as never }),
    ).not.toThrow();
    expect(() => createDaytonaContext({ sdk: { Daytona: trap } as never })).not.toThrow();
  });
});
