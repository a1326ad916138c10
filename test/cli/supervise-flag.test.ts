import { describe, expect, it } from 'vitest';
import { chooseContext } from '../../src/cli/context-setup.js';
import { contextArgs } from '../../src/cli/mcp-client-config.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

describe('the --no-supervise flag', () => {
  it('turns the process context supervisor off, and is on by default', () => {
    expect(chooseContext({ root: '/tmp' }, '/')).toMatchObject({ kind: 'process', supervise: true });
    expect(chooseContext({ root: '/tmp', supervise: false }, '/')).toMatchObject({
      kind: 'process',
      supervise: false,
    });
  });

  it('belongs to the process context', () => {
    const docker = { context: 'docker', image: 'x', root: '/tmp' };
    expect(() => chooseContext({ ...docker, supervise: false }, '/')).toThrow(InvalidArgumentError);
    expect(() => chooseContext({ ...docker, supervise: false }, '/')).toThrow(
      /--no-supervise: applies to the process context only/,
    );
    expect(() => chooseContext({ ...docker, supervise: true }, '/')).toThrow(/--supervise: applies/);
  });

  it('is carried into a client configuration when turned off', () => {
    expect(contextArgs({ supervise: false }, '/p')).toEqual(['--root', '/p', '--no-supervise']);
    expect(contextArgs({}, '/p')).not.toContain('--no-supervise');
  });
});

describe('the --no-supervise flag outside the process context', () => {
  it('is refused by the kubernetes and virtual contexts', () => {
    expect(() => chooseContext({ context: 'kubernetes', image: 'x', supervise: false }, '/')).toThrow(
      /--supervise: does not apply to the kubernetes context/,
    );
    expect(() => chooseContext({ context: 'virtual', root: '/tmp', supervise: false }, '/')).toThrow(
      /--no-supervise: applies to the process context only/,
    );
  });
});
