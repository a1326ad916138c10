/**
 * The CLI's kubernetes context: flag validation, the client configuration it prints, and the
 * built binary driving a pod of the fake API server (`berth run`, `berth mcp --check`) and
 * checking the cluster's permissions (`berth doctor`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseContext } from '../../src/cli/context-setup.js';
import type { McpCheckResult } from '../../src/cli/mcp-check.js';
import { sandboxStateOf } from '../../src/cli/mcp-check-report.js';
import { carriedEnv, contextArgs } from '../../src/cli/mcp-client-config.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import {
  describeFakeCluster,
  type FakeCluster,
  startFakeCluster,
  TEST_IMAGE,
} from '../contexts/kubernetes/fake-cluster.js';
import { berth } from './berth-binary.js';

const NAMESPACE = 'berth-test';

describe('--context kubernetes: flags', () => {
  it('needs an image, and says what the image must hold', () => {
    expect(() => chooseContext({ context: 'kubernetes' }, '/home/u')).toThrow(InvalidArgumentError);
    expect(() => chooseContext({ context: 'kubernetes' }, '/home/u')).toThrow(
      /--image: the kubernetes context needs an image.*\/bin\/sh, env, tar/,
    );
  });

  it('refuses the flags that cannot apply to a pod, saying why', () => {
    const base = { context: 'kubernetes', image: 'busybox' };
    expect(() => chooseContext({ ...base, root: '/tmp' }, '/')).toThrow(
      /--root: does not apply to the kubernetes context: a pod cannot see this machine's files/,
    );
    expect(() => chooseContext({ ...base, network: 'deny' }, '/')).toThrow(
      /--network: does not apply.*NetworkPolicy/,
    );
    expect(() => chooseContext({ ...base, sandbox: true }, '/')).toThrow(/--sandbox: does not apply/);
    expect(() => chooseContext({ ...base, template: 'x' }, '/')).toThrow(
      /--template: does not apply to the kubernetes context: the pod runs --image/,
    );
  });

  it('keeps the kubeconfig flags to the kubernetes context', () => {
    for (const flag of ['kubeconfig', 'kube-context', 'namespace']) {
      expect(() => chooseContext({ [flag]: 'x' }, '/')).toThrow(
        new RegExp(`--${flag}: applies to the kubernetes context only; add --context kubernetes`),
      );
      expect(() => chooseContext({ context: 'docker', image: 'i', root: '/tmp', [flag]: 'x' }, '/')).toThrow(
        /applies to the kubernetes context only/,
      );
    }
    expect(() => chooseContext({ context: 'pods' }, '/')).toThrow(
      /--context: must be process, docker, kubernetes, e2b, daytona or virtual, got "pods"/,
    );
  });

  it('resolves the choice: a relative kubeconfig against the working directory, hardened by default', () => {
    const choice = chooseContext(
      {
        context: 'kubernetes',
        image: 'busybox',
        kubeconfig: 'k/config',
        'kube-context': 'dev',
        namespace: 'ns',
      },
      '/home/u',
    );
    expect(choice).toEqual({
      kind: 'kubernetes',
      root: '/home/u',
      image: 'busybox',
      harden: true,
      kubeconfig: '/home/u/k/config',
      kubeContext: 'dev',
      namespace: 'ns',
    });
    expect(chooseContext({ context: 'kubernetes', image: 'b', harden: false }, '/')).toMatchObject({
      harden: false,
      kubeconfig: undefined,
    });
  });

  it('prints a client configuration without --root, with an absolute kubeconfig and KUBECONFIG carried', () => {
    const args = contextArgs(
      { context: 'kubernetes', image: 'busybox', kubeconfig: 'cfg', 'kube-context': 'dev', namespace: 'ns' },
      '/home/u',
    );
    expect(args).toEqual([
      '--context',
      'kubernetes',
      '--image',
      'busybox',
      '--kubeconfig',
      '/home/u/cfg',
      '--kube-context',
      'dev',
      '--namespace',
      'ns',
    ]);
    expect(carriedEnv({ KUBECONFIG: '/a:/b', OTHER: 'x' })).toEqual({ KUBECONFIG: '/a:/b' });
    // The remote contexts refuse --root as well, and their --template reaches the configuration.
    expect(contextArgs({ context: 'e2b', template: 'base' }, '/p')).toEqual([
      '--context',
      'e2b',
      '--template',
      'base',
    ]);
    const choice = chooseContext({ context: 'kubernetes', image: 'busybox', harden: false }, '/');
    expect(sandboxStateOf(choice, { ok: true } as McpCheckResult)).toEqual({
      state: 'container',
      reason: expect.stringMatching(/in a pod of busybox \(not hardened: --no-harden\)/),
    });
  });
});

describeFakeCluster('--context kubernetes: the built binary against the fake API server', () => {
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await startFakeCluster();
  });
  afterAll(async () => {
    await cluster.close();
  });
  const podsLeft = () => cluster.server.store.list(NAMESPACE).map((pod) => pod.metadata?.name);
  const kubernetesFlags = () => [
    '--context',
    'kubernetes',
    '--kubeconfig',
    cluster.kubeconfig,
    '--image',
    TEST_IMAGE,
  ];
  const runInPod = (command: readonly string[], extra: readonly string[] = []) =>
    berth(['run', ...kubernetesFlags(), ...extra, '--', ...command], { timeoutMs: 120_000 });

  it('berth run runs the command in a hardened pod, passes its exit status and output, and deletes the pod', async () => {
    const result = await runInPod([
      'sh',
      '-c',
      'pwd; grep NoNewPrivs /proc/self/status; touch /etc/x 2>/dev/null || echo root-read-only; echo oops >&2; exit 3',
    ]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toMatch(/^\/workspace\nNoNewPrivs:\s+1\nroot-read-only\n$/);
    expect(result.stderr).toContain('oops');
    expect(
      cluster.server.requests.some((r) => r.startsWith(`POST /api/v1/namespaces/${NAMESPACE}/pods`)),
    ).toBe(true);
    expect(podsLeft()).toEqual([]);
  }, 130_000);

  it('berth run --no-harden starts the image as it is', async () => {
    const result = await runInPod(['sh', '-c', 'grep NoNewPrivs /proc/self/status'], ['--no-harden']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/NoNewPrivs:\s+0/);
    expect(podsLeft()).toEqual([]);
  }, 130_000);

  it('berth run names the missing RBAC permission and exits 1 without leaving a pod', async () => {
    cluster.server.deny('create', 'pods/exec');
    try {
      const result = await runInPod(['true']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/create.*pods\/exec/);
      expect(podsLeft()).toEqual([]);
    } finally {
      cluster.server.allowAll();
    }
  }, 130_000);

  it('berth mcp --check starts the server on a pod and runs a command through MCP', async () => {
    const result = await berth(['mcp', '--check', '--json', ...kubernetesFlags()], { timeoutMs: 180_000 });
    const report = JSON.parse(result.stdout);
    expect(report.ok, result.stdout + result.stderr).toBe(true);
    expect(report.sandbox.state).toBe('container');
    expect(report.context).toMatch(/kubernetes context \(berth-test:busybox, .*pod berth-/);
    expect(report.calls.length).toBeGreaterThan(0);
    const entry = report.clientConfig.mcpServers.berth;
    expect(entry.args).toEqual(
      expect.arrayContaining(['--context', 'kubernetes', '--kubeconfig', cluster.kubeconfig]),
    );
    expect(entry.args).not.toContain('--root');
    expect(result.code).toBe(0);
    expect(podsLeft()).toEqual([]);
  }, 190_000);

  it('berth doctor reports the cluster and each permission; a denied one is a failure naming verb and resource', async () => {
    const doctor = () =>
      berth(['doctor', '--json', '--kubeconfig', cluster.kubeconfig], { timeoutMs: 120_000 }).then((result) =>
        JSON.parse(result.stdout).checks.find((c: { id: string }) => c.id === 'kubernetes'),
      );
    const granted = await doctor();
    expect(granted.status).toBe('ok');
    expect(granted.detail).toMatch(/reachable: Kubernetes v1\.31\.0-fake .*namespace berth-test/);
    expect(granted.checks.map((c: { title: string }) => c.title)).toEqual([
      'create pods',
      'get pods',
      'list pods',
      'watch pods',
      'patch pods',
      'delete pods',
      'create pods/exec',
      'get pods/exec',
    ]);
    expect(granted.checks.every((c: { status: string }) => c.status === 'ok')).toBe(true);

    cluster.server.deny('delete', 'pods');
    cluster.server.deny('get', 'pods/exec');
    try {
      const denied = await doctor();
      expect(denied.status).toBe('fail');
      expect(denied.detail).toContain('missing permissions: delete pods');
      expect(denied.fix).toMatch(/kubectl apply -n berth-test/);
      const status = Object.fromEntries(
        denied.checks.map((c: { title: string; status: string }) => [c.title, c.status]),
      );
      expect(status).toMatchObject({ 'delete pods': 'fail', 'get pods/exec': 'warn', 'create pods': 'ok' });
    } finally {
      cluster.server.allowAll();
    }
  }, 250_000);

  it('berth doctor skips the cluster when no kubeconfig exists, and fails on an unreachable one', async () => {
    const none = await berth(['doctor', '--json'], {
      env: { KUBECONFIG: join(cluster.dir, 'absent'), HOME: cluster.dir },
      timeoutMs: 120_000,
    });
    const skipped = JSON.parse(none.stdout).checks.find((c: { id: string }) => c.id === 'kubernetes');
    expect(skipped).toMatchObject({ status: 'skip', detail: expect.stringMatching(/no kubeconfig here/) });
    const absent = await berth(['doctor', '--json', '--kubeconfig', join(cluster.dir, 'absent')], {
      timeoutMs: 120_000,
    });
    const failed = JSON.parse(absent.stdout).checks.find((c: { id: string }) => c.id === 'kubernetes');
    expect(failed).toMatchObject({ status: 'fail', detail: expect.stringMatching(/does not exist/) });
    expect(absent.code).toBe(1);
  }, 250_000);
});
