/**
 * The CLI's docker context is hardened unless told otherwise: `berth run --context docker` starts a
 * container with no capabilities, no new privileges, a read-only root and a writable workspace;
 * `--no-harden` opts out. The built binary against the real engine.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseContext } from '../../src/cli/context-setup.js';
import { contextArgs } from '../../src/cli/mcp-client-config.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { engine } from '../contexts/docker/docker-engine.js';
import { berth } from './berth-binary.js';

const PROBE = [
  'grep -E "^(CapEff|NoNewPrivs)" /proc/self/status',
  'touch /etc/berth-probe 2>&1 || echo root-read-only',
  'echo from-container > /workspace/written.txt && echo workspace-writable',
  'touch /tmp/x && echo tmp-writable',
].join('; ');

describe.skipIf(!engine.available)('berth run --context docker: hardened by default', () => {
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-harden-')));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const run = (extra: string[]) =>
    berth(
      [
        'run',
        '--context',
        'docker',
        '--image',
        'berth-test:busybox',
        '--root',
        root,
        ...extra,
        '--',
        'sh',
        '-c',
        PROBE,
      ],
      {
        timeoutMs: 120_000,
      },
    );

  it('drops every capability, sets no-new-privileges, keeps the root read-only and the workspace writable', async () => {
    const result = await run([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(result.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(result.stdout).toMatch(/Read-only file system/);
    expect(result.stdout).toContain('root-read-only');
    expect(result.stdout).toContain('workspace-writable');
    expect(result.stdout).toContain('tmp-writable');
    expect(readFileSync(join(root, 'written.txt'), 'utf8')).toBe('from-container\n');
  }, 130_000);

  it('--no-harden starts the engine default container', async () => {
    const result = await run(['--no-harden']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/CapEff:\s+0000000000000000/);
    expect(result.stdout).toMatch(/NoNewPrivs:\s+0/);
    expect(result.stdout).not.toContain('root-read-only');
    expect(result.stdout).toContain('workspace-writable');
  }, 130_000);
});

describe('the --harden flag', () => {
  it('belongs to the docker context, and is carried into a client configuration when turned off', () => {
    expect(() => chooseContext({ harden: false }, '/')).toThrow(InvalidArgumentError);
    expect(() => chooseContext({ harden: false }, '/')).toThrow(
      /--no-harden: applies to the docker and kubernetes contexts only/,
    );
    expect(chooseContext({ context: 'docker', image: 'x', root: '/tmp' }, '/')).toMatchObject({
      harden: true,
    });
    expect(chooseContext({ context: 'docker', image: 'x', root: '/tmp', harden: false }, '/')).toMatchObject({
      harden: false,
    });
    expect(contextArgs({ context: 'docker', image: 'x', harden: false }, '/p')).toContain('--no-harden');
    expect(contextArgs({ context: 'docker', image: 'x' }, '/p')).not.toContain('--no-harden');
  });
});
