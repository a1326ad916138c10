import { describe, expect, it } from 'vitest';
import { chooseContext } from '../../src/cli/context-setup.js';
import { contextArgs } from '../../src/cli/mcp-client-config.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

describe('the --sandbox-session flag', () => {
  it('asks the process context for one sandbox session, which makes the sandbox required', () => {
    expect(chooseContext({ root: '/tmp' }, '/')).toMatchObject({ kind: 'process', sandboxSession: false });
    expect(chooseContext({ root: '/tmp', 'sandbox-session': true }, '/')).toMatchObject({
      kind: 'process',
      sandboxSession: true,
      sandbox: true,
      sandboxRequiredBy: '--sandbox-session',
    });
  });

  it('is refused with --no-sandbox, and outside the process context', () => {
    expect(() => chooseContext({ root: '/tmp', 'sandbox-session': true, sandbox: false }, '/')).toThrow(
      /--sandbox-session: needs the OS sandbox, and --no-sandbox turns it off/,
    );
    const docker = { context: 'docker', image: 'x', root: '/tmp', 'sandbox-session': true };
    expect(() => chooseContext(docker, '/')).toThrow(InvalidArgumentError);
    expect(() => chooseContext(docker, '/')).toThrow(
      /--sandbox-session: applies to the OS sandbox of the process context only/,
    );
    expect(() => chooseContext({ context: 'virtual', root: '/tmp', 'sandbox-session': true }, '/')).toThrow(
      /--sandbox-session/,
    );
  });

  it('is carried into a client configuration', () => {
    expect(contextArgs({ 'sandbox-session': true }, '/p')).toEqual(['--root', '/p', '--sandbox-session']);
    expect(contextArgs({}, '/p')).not.toContain('--sandbox-session');
  });
});
