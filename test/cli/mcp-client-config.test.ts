import { describe, expect, it } from 'vitest';
import {
  carriedEnv,
  clientConfig,
  contextArgs,
  installKind,
  serverEntry,
} from '../../src/cli/mcp-client-config.js';

describe('the MCP client configuration for this install', () => {
  it('an installed package is started with npx; a checkout with node and the path of its CLI', () => {
    const installed = '/home/me/app/node_modules/berth/dist/cli/main.js';
    const checkout = '/home/me/src/berth/dist/cli/main.js';
    expect(installKind(installed)).toBe('package');
    expect(installKind(checkout)).toBe('checkout');
    // A directory merely named like it is not an install.
    expect(installKind('/home/me/node_modules-old/berth/dist/cli/main.js')).toBe('checkout');
    expect(serverEntry(installed, ['--root', '/p'])).toEqual({
      command: 'npx',
      args: ['berth', 'mcp', '--root', '/p'],
    });
    expect(serverEntry(checkout, ['--root', '/p'])).toEqual({
      command: 'node',
      args: [checkout, 'mcp', '--root', '/p'],
    });
    expect(clientConfig({ command: 'npx', args: ['berth', 'mcp'] })).toEqual({
      mcpServers: { berth: { command: 'npx', args: ['berth', 'mcp'] } },
    });
  });

  it('carries the root always, and the other context options only when given', () => {
    expect(contextArgs({}, '/p')).toEqual(['--root', '/p']);
    expect(contextArgs({ sandbox: true, network: 'allow' }, '/p')).toEqual([
      '--root',
      '/p',
      '--network',
      'allow',
      '--sandbox',
    ]);
    expect(contextArgs({ context: 'docker', image: 'node:20', root: 'rel' }, '/abs/rel')).toEqual([
      '--root',
      '/abs/rel',
      '--context',
      'docker',
      '--image',
      'node:20',
    ]);
    expect(contextArgs({ sandbox: false }, '/p')).toEqual(['--root', '/p', '--no-sandbox']);
  });

  it('carries only the variables that change where contexts reach, when set', () => {
    expect(
      carriedEnv({ DOCKER_HOST: 'tcp://h:2375', TMPDIR: '', HOME: '/root', AWS_SECRET_ACCESS_KEY: 's' }),
    ).toEqual({
      DOCKER_HOST: 'tcp://h:2375',
    });
    expect(serverEntry('/b/dist/cli/main.js', [], { TMPDIR: '/big' })).toEqual({
      command: 'node',
      args: ['/b/dist/cli/main.js', 'mcp'],
      env: { TMPDIR: '/big' },
    });
  });
});
