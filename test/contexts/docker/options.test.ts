import { describe, expect, it } from 'vitest';
import { planContainer } from '../../../src/contexts/docker/container-spec.js';
import { resolveDockerOptions } from '../../../src/contexts/docker/context-options.js';
import { resolveEndpoint } from '../../../src/contexts/docker/engine-endpoint.js';
import type { SpawnConfig } from '../../../src/contract/types.js';
import { InvalidArgumentError } from '../../../src/errors/index.js';

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe('E_INVALID_ARGUMENT');
    return (error as InvalidArgumentError).field;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe('resolveEndpoint', () => {
  it('defaults to the local socket', () => {
    expect(resolveEndpoint({}, {})).toEqual({ kind: 'unix', socketPath: '/var/run/docker.sock' });
  });

  it('reads DOCKER_HOST in its unix and tcp forms', () => {
    expect(resolveEndpoint({}, { DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).toEqual({
      kind: 'unix',
      socketPath: '/run/user/1000/docker.sock',
    });
    expect(resolveEndpoint({}, { DOCKER_HOST: 'tcp://10.0.0.5:2375' })).toEqual({
      kind: 'tcp',
      host: '10.0.0.5',
      port: 2375,
    });
    expect(resolveEndpoint({}, { DOCKER_HOST: 'tcp://[::1]:2376' })).toEqual({
      kind: 'tcp',
      host: '::1',
      port: 2376,
    });
    expect(resolveEndpoint({}, { DOCKER_HOST: 'tcp://engine' })).toEqual({
      kind: 'tcp',
      host: 'engine',
      port: 2375,
    });
  });

  it('lets explicit options win over DOCKER_HOST', () => {
    const env = { DOCKER_HOST: 'tcp://elsewhere:2375' };
    expect(resolveEndpoint({ socketPath: '/tmp/d.sock' }, env)).toEqual({
      kind: 'unix',
      socketPath: '/tmp/d.sock',
    });
    expect(resolveEndpoint({ host: 'tcp://here:1' }, env)).toEqual({ kind: 'tcp', host: 'here', port: 1 });
  });

  it('refuses addresses it cannot speak to, naming where they came from', () => {
    expect(fieldOf(() => resolveEndpoint({}, { DOCKER_HOST: 'ssh://me@box' }))).toBe('DOCKER_HOST');
    expect(fieldOf(() => resolveEndpoint({ host: 'https://box:2376' }, {}))).toBe('host');
    expect(fieldOf(() => resolveEndpoint({}, { DOCKER_HOST: 'tcp://box:99999' }))).toBe('DOCKER_HOST');
    expect(fieldOf(() => resolveEndpoint({}, { DOCKER_HOST: 'unix://' }))).toBe('DOCKER_HOST');
    expect(
      fieldOf(() => resolveEndpoint({}, { DOCKER_HOST: 'tcp://box:2376', DOCKER_TLS_VERIFY: '1' })),
    ).toBe('DOCKER_TLS_VERIFY');
  });
});

describe('resolveDockerOptions', () => {
  it('fills defaults', () => {
    const resolved = resolveDockerOptions(undefined, {});
    expect(resolved.defaultTimeoutMs).toBe(30_000);
    expect(resolved.policy).toEqual({ maxOutputBytes: 1024 * 1024, maxSpillBytes: 64 * 1024 * 1024 });
    expect(resolved.image).toBeUndefined();
  });

  it('names each bad option', () => {
    expect(fieldOf(() => resolveDockerOptions({ defaultTimeoutMs: -1 }, {}))).toBe('defaultTimeoutMs');
    expect(fieldOf(() => resolveDockerOptions({ maxOutputBytes: 0 }, {}))).toBe('options.maxOutputBytes');
    expect(fieldOf(() => resolveDockerOptions({ image: '' }, {}))).toBe('image');
    expect(fieldOf(() => resolveDockerOptions({ killGraceMs: 1.5 }, {}))).toBe('killGraceMs');
    expect(fieldOf(() => resolveDockerOptions('x' as never, {}))).toBe('options');
  });
});

describe('planContainer', () => {
  const plan = (config: SpawnConfig) => planContainer(config, 'docker-test', 'img:1');

  it('maps every option onto the create body, with berth labels and a reaping init', () => {
    const { image, body } = plan({
      image: 'other:2',
      cwd: '/work',
      env: { A: '1' },
      user: '1000:1000',
      labels: { team: 'x' },
      network: 'net1',
      ports: [{ container: 80 }, { container: 53, host: 5353, protocol: 'udp', hostIp: '0.0.0.0' }],
      mounts: [{ source: '/src', target: '/dst', readOnly: true }],
      resources: { memoryBytes: 64 * 1024 * 1024, cpus: 0.5, pids: 100 },
      runtime: 'runsc',
      hardening: { dropAllCapabilities: true, noNewPrivileges: true, readOnlyRootfs: true },
    });
    expect(image).toBe('other:2');
    expect(body).toMatchObject({
      Image: 'other:2',
      WorkingDir: '/work',
      Env: ['A=1'],
      User: '1000:1000',
      ExposedPorts: { '80/tcp': {}, '53/udp': {} },
      Labels: {
        team: 'x',
        'dev.berth.managed': 'true',
        'dev.berth.handle': 'docker-test',
        'dev.berth.owner.pid': String(process.pid),
      },
      HostConfig: {
        Init: true,
        NetworkMode: 'net1',
        PortBindings: {
          '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
          '53/udp': [{ HostIp: '0.0.0.0', HostPort: '5353' }],
        },
        Mounts: [{ Type: 'bind', Source: '/src', Target: '/dst', ReadOnly: true }],
        Memory: 64 * 1024 * 1024,
        NanoCpus: 500_000_000,
        PidsLimit: 100,
        Runtime: 'runsc',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
      },
      // A read-only root keeps berth's state directory writable on an anonymous volume.
      Volumes: { '/tmp/.berth': {} },
    });
  });

  it('leaves hardening off by default', () => {
    const { body } = plan({});
    expect(body.Image).toBe('img:1');
    const hostConfig = body.HostConfig as Record<string, unknown>;
    expect(hostConfig.CapDrop).toBeUndefined();
    expect(hostConfig.SecurityOpt).toBeUndefined();
    expect(hostConfig.ReadonlyRootfs).toBeUndefined();
  });

  it.each([
    [{ image: '' }, 'image'],
    [{ cwd: 'relative' }, 'cwd'],
    [{ env: { A: 1 as unknown as string } }, 'env.A'],
    [{ user: 'a b' }, 'user'],
    [{ labels: { 'dev.berth.managed': 'false' } }, 'labels.dev.berth.managed'],
    [{ labels: { ok: 3 as unknown as string } }, 'labels.ok'],
    [{ network: '' }, 'network'],
    [{ ports: [{ container: 0 }] }, 'ports[0].container'],
    [{ ports: [{ container: 80, host: 70000 }] }, 'ports[0].host'],
    [{ ports: [{ container: 80, protocol: 'sctp' as 'tcp' }] }, 'ports[0].protocol'],
    [{ ports: {} as never }, 'ports'],
    [{ mounts: [{ source: 'rel', target: '/x' }] }, 'mounts[0].source'],
    [{ mounts: [{ source: '/x', target: 'rel' }] }, 'mounts[0].target'],
    [
      { mounts: [{ source: '/x', target: '/y', readOnly: 'yes' as unknown as boolean }] },
      'mounts[0].readOnly',
    ],
    [{ resources: { memoryBytes: 1024 } }, 'resources.memoryBytes'],
    [{ resources: { cpus: 0 } }, 'resources.cpus'],
    [{ resources: { cpus: Number.NaN } }, 'resources.cpus'],
    [{ resources: { pids: -1 } }, 'resources.pids'],
    [{ runtime: '' }, 'runtime'],
    [{ hardening: { readOnlyRootfs: 'true' as unknown as boolean } }, 'hardening.readOnlyRootfs'],
  ] as [SpawnConfig, string][])('rejects %o naming %s', (config, field) => {
    expect(fieldOf(() => plan(config))).toBe(field);
  });

  it('asks for an image when neither the config nor the context names one', () => {
    expect(fieldOf(() => planContainer({}, 'h', undefined))).toBe('image');
  });
});
