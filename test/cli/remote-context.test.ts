/**
 * The CLI's `--context e2b|daytona`: flag validation before anything starts, and the doctor's
 * remote findings (SDK present, credentials set; nothing created).
 */
import { describe, expect, it } from 'vitest';
import { chooseContext } from '../../src/cli/context-setup.js';
import { checkRemoteContexts } from '../../src/cli/doctor/remote-check.js';

describe('--context e2b | daytona', () => {
  it('chooses the remote context with its template and network', () => {
    expect(
      chooseContext({ context: 'e2b', template: 'my-tpl', network: 'allow' }, process.cwd()),
    ).toMatchObject({
      kind: 'e2b',
      template: 'my-tpl',
      network: 'allow',
    });
    expect(chooseContext({ context: 'daytona' }, process.cwd())).toMatchObject({
      kind: 'daytona',
      network: 'deny',
    });
  });

  it('refuses flags that do not apply, saying why', () => {
    expect(() => chooseContext({ context: 'e2b', root: '.' }, process.cwd())).toThrow(
      /--root.*nothing of this machine is uploaded/,
    );
    expect(() => chooseContext({ context: 'daytona', image: 'node:20' }, process.cwd())).toThrow(
      /--image.*--template/,
    );
    expect(() => chooseContext({ context: 'e2b', sandbox: false }, process.cwd())).toThrow(/--no-sandbox/);
    expect(() => chooseContext({ template: 'x' }, process.cwd())).toThrow(
      /--template: applies to the e2b and daytona contexts only/,
    );
  });

  it('an unknown context lists the six', () => {
    expect(() => chooseContext({ context: 'e2bb' }, process.cwd())).toThrow(
      /must be process, docker, kubernetes, e2b, daytona or virtual/,
    );
  });
});

describe('berth doctor: remote contexts', () => {
  it('ok when the SDK loads and a key is set; warn with the fix when the key is missing', async () => {
    const [e2b, daytona] = await checkRemoteContexts({ E2B_API_KEY: 'e2b_x' });
    expect(e2b).toMatchObject({ id: 'e2b', status: 'ok' });
    expect(e2b?.detail).toContain('E2B_API_KEY is set');
    expect(daytona).toMatchObject({ id: 'daytona', status: 'warn' });
    expect(daytona?.fix).toMatch(/DAYTONA_API_KEY/);
  });
});
