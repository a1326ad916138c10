/**
 * The kubeconfig is found and merged as kubectl does it, with the real client library parsing the
 * files; and a missing client library is a typed error that names the package (checked in a child
 * Node process whose module resolution cannot find it).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeconfigError } from '../../../src/contexts/kubernetes/errors.js';
import {
  type KubeconfigEnvironment,
  resolveKubeconfig,
} from '../../../src/contexts/kubernetes/kubeconfig.js';
import { loadClient } from '../../../src/contexts/kubernetes/load-client.js';

const { k8s } = await loadClient();
const dir = mkdtempSync(join(tmpdir(), 'berth-kubeconfig-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(
  name: string,
  options: { current?: string; contexts: { name: string; cluster: string; namespace?: string }[] },
): string {
  const clusters = [...new Set(options.contexts.map((context) => context.cluster))];
  const path = join(dir, name);
  writeFileSync(
    path,
    `apiVersion: v1
kind: Config
clusters:
${clusters.map((cluster) => `- name: ${cluster}\n  cluster:\n    server: https://${cluster}.example:6443`).join('\n')}
users:
- name: u-${name}
  user:
    token: t
contexts:
${options.contexts
  .map(
    (context) =>
      `- name: ${context.name}\n  context:\n    cluster: ${context.cluster}\n    user: u-${name}${context.namespace ? `\n    namespace: ${context.namespace}` : ''}`,
  )
  .join('\n')}
${options.current ? `current-context: ${options.current}` : ''}
`,
  );
  return path;
}

const home = join(dir, 'home');
mkdirSync(join(home, '.kube'), { recursive: true });
const environment = (
  env: Record<string, string>,
  serviceAccountDir = join(dir, 'no-sa'),
): KubeconfigEnvironment => ({
  env,
  homeDir: home,
  serviceAccountDir,
});

const first = config('first', {
  current: 'alpha',
  contexts: [
    { name: 'alpha', cluster: 'one', namespace: 'team-a' },
    { name: 'shared', cluster: 'one' },
  ],
});
const second = config('second', {
  current: 'beta',
  contexts: [
    { name: 'beta', cluster: 'two' },
    { name: 'shared', cluster: 'two' },
  ],
});

describe('kubeconfig resolution', () => {
  it('KUBECONFIG files merge as kubectl merges them: the first to set a name or the current context wins; missing files are skipped', () => {
    const env = { KUBECONFIG: [join(dir, 'missing'), first, second].join(delimiter) };
    const resolved = resolveKubeconfig(k8s, {}, environment(env));
    expect(resolved.contextName).toBe('alpha');
    expect(resolved.server).toBe('https://one.example:6443');
    expect(resolved.namespace).toBe('team-a');
    const shared = resolveKubeconfig(k8s, { context: 'shared' }, environment(env));
    expect(shared.server).toBe('https://one.example:6443');
    const beta = resolveKubeconfig(k8s, { context: 'beta' }, environment(env));
    expect(beta.server).toBe('https://two.example:6443');
    expect(beta.namespace).toBe('default');
  });

  it('an explicit kubeconfig wins over KUBECONFIG, and must exist', () => {
    const env = { KUBECONFIG: first };
    expect(resolveKubeconfig(k8s, { kubeconfig: second }, environment(env)).contextName).toBe('beta');
    const error = (() => {
      try {
        resolveKubeconfig(k8s, { kubeconfig: join(dir, 'absent') }, environment(env));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(KubeconfigError);
    expect((error as Error).message).toContain('does not exist');
  });

  it("without KUBECONFIG, ~/.kube/config; the namespace option wins over the context's", () => {
    const homeConfig = config('home-config', {
      current: 'h',
      contexts: [{ name: 'h', cluster: 'three', namespace: 'ctx-ns' }],
    });
    writeFileSync(join(home, '.kube', 'config'), readFileSync(homeConfig));
    const resolved = resolveKubeconfig(k8s, { namespace: 'mine' }, environment({}));
    expect(resolved.server).toBe('https://three.example:6443');
    expect(resolved.namespace).toBe('mine');
    expect(resolved.source).toContain(join(home, '.kube', 'config'));
    rmSync(join(home, '.kube', 'config'));
  });

  it('with no file, the in-cluster service account (its namespace file included)', () => {
    const sa = join(dir, 'serviceaccount');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), 'sa-token');
    writeFileSync(join(sa, 'ca.crt'), 'not a real CA');
    writeFileSync(join(sa, 'namespace'), 'agents\n');
    const env = { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };
    const resolved = resolveKubeconfig(k8s, {}, environment(env, sa));
    expect(resolved.source).toBe('in-cluster service account');
    expect(resolved.server).toBe('https://10.0.0.1:443');
    expect(resolved.namespace).toBe('agents');
  });

  it('nothing at all is a KubeconfigError listing where berth looked (never a silent localhost:8080)', () => {
    try {
      resolveKubeconfig(k8s, {}, environment({}));
      throw new Error('resolved');
    } catch (error) {
      expect(error).toBeInstanceOf(KubeconfigError);
      const searched = (error as KubeconfigError).searched;
      expect(searched).toContain(join(home, '.kube', 'config'));
      expect(searched.some((place) => place.startsWith('in-cluster'))).toBe(true);
    }
  });

  it('an unknown context is refused with the one meant', () => {
    expect(() => resolveKubeconfig(k8s, { context: 'alpah' }, environment({ KUBECONFIG: first }))).toThrow(
      /did you mean "alpha"\?/,
    );
  });

  it('a file that is not a kubeconfig is a KubeconfigError naming it', () => {
    const broken = join(dir, 'broken');
    writeFileSync(broken, 'clusters: [\n');
    expect(() => resolveKubeconfig(k8s, { kubeconfig: broken }, environment({}))).toThrow(KubeconfigError);
  });
});

describe('the client library is an optional peer', () => {
  it('absent, the first use is a KubernetesClientMissingError that names the package and how to install it', async () => {
    const hook = join(dir, 'hide-client.mjs');
    writeFileSync(
      hook,
      `export async function resolve(specifier, context, next) {
  if (specifier === '@kubernetes/client-node') {
    const error = new Error("Cannot find package '@kubernetes/client-node'");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hook}`)});\n`,
    );
    const entry = fileURLToPath(new URL('../../../dist/contexts/kubernetes/index.js', import.meta.url));
    const script = `const m = await import(${JSON.stringify(entry)});
const context = m.createKubernetesContext({ image: 'x' });
try { await context.spawn(); console.log('spawned?!'); }
catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message })); }`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', register, '--input-type=module', '-e', script],
      {
        timeout: 30_000,
      },
    );
    const reported = JSON.parse(stdout.trim()) as { name: string; code: string; message: string };
    expect(reported.name).toBe('KubernetesClientMissingError');
    expect(reported.code).toBe('E_KUBERNETES_CLIENT_MISSING');
    expect(reported.message).toContain('it is not installed');
    expect(reported.message).toContain('npm install @kubernetes/client-node@1');
  });
});
