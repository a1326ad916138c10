/**
 * The kubeconfig, resolved as `kubectl` resolves it: an explicit file (`--kubeconfig`), else the
 * files in `KUBECONFIG` merged (missing ones skipped; the first file to set a name or the current
 * context wins), else `~/.kube/config`, else the in-cluster service account. An explicit context
 * (`--context`) picks one of the file's contexts. Nothing falls back silently: no kubeconfig at all
 * is a `KubeconfigError` that lists where berth looked (the client library's own loader would
 * quietly aim at `http://localhost:8080`).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Cluster, Context, KubeConfig, User } from '@kubernetes/client-node';
import { closestName } from '../../contract/validate-options.js';
import { KubeconfigError } from './errors.js';
import type { KubernetesClient } from './load-client.js';

/** Where the in-cluster service account's files live. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** What the resolution looks at (the real process by default; tests pass their own). */
export interface KubeconfigEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly serviceAccountDir: string;
}

/** The caller's choices (the context's options). */
export interface KubeconfigChoice {
  /** An explicit kubeconfig file: only it is read, and it must exist. */
  readonly kubeconfig?: string | undefined;
  /** A context name of the kubeconfig; default its current context. */
  readonly context?: string | undefined;
  /** A namespace; default the context's, else the service account's, else `default`. */
  readonly namespace?: string | undefined;
}

/** A resolved configuration. */
export interface ResolvedKubeconfig {
  readonly kubeConfig: KubeConfig;
  /** `file /path`, `KUBECONFIG a:b`, or `in-cluster service account`. */
  readonly source: string;
  /** The context used (`inClusterContext` in a pod). */
  readonly contextName: string;
  readonly server: string;
  readonly namespace: string;
}

/** The real process's environment. */
export function processEnvironment(): KubeconfigEnvironment {
  return { env: process.env, homeDir: homedir(), serviceAccountDir: SERVICE_ACCOUNT_DIR };
}

interface Loaded {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext: string;
}

/**
 * Resolve the kubeconfig.
 * @throws KubeconfigError when none is found, a file cannot be read or parsed, or the chosen
 *   context (or its cluster or user) does not exist.
 */
export function resolveKubeconfig(
  k8s: KubernetesClient,
  choice: KubeconfigChoice,
  environment: KubeconfigEnvironment = processEnvironment(),
): ResolvedKubeconfig {
  const searched: string[] = [];
  let files: string[];
  let source: string;
  if (choice.kubeconfig !== undefined) {
    files = [choice.kubeconfig];
    source = `file ${choice.kubeconfig}`;
    searched.push(choice.kubeconfig);
    if (!existsSync(choice.kubeconfig)) {
      throw new KubeconfigError(
        `the kubeconfig file ${choice.kubeconfig} does not exist`,
        searched,
        'give the path of an existing kubeconfig, or leave the kubeconfig option out to use KUBECONFIG or ~/.kube/config',
      );
    }
  } else if ((environment.env.KUBECONFIG ?? '') !== '') {
    const listed = environment.env.KUBECONFIG!.split(delimiter).filter((file) => file !== '');
    searched.push(...listed.map((file) => `KUBECONFIG entry ${file}`));
    files = listed.filter((file) => existsSync(file));
    source = `KUBECONFIG ${environment.env.KUBECONFIG}`;
  } else {
    const home = join(environment.homeDir, '.kube', 'config');
    searched.push(home);
    files = existsSync(home) ? [home] : [];
    source = `file ${home}`;
  }
  const merged = mergeFiles(k8s, files, searched);
  if (merged.contexts.length === 0 && choice.kubeconfig === undefined) {
    const inCluster = inClusterConfig(k8s, environment, searched);
    if (inCluster !== undefined) return finish(inCluster, choice, searched);
    throw new KubeconfigError(
      'no Kubernetes configuration found',
      searched,
      "set KUBECONFIG or the kubeconfig option to a kubeconfig file, create ~/.kube/config (your cluster provider's CLI writes it), or run inside a pod with a service account",
    );
  }
  const kubeConfig = new k8s.KubeConfig();
  kubeConfig.loadFromOptions(merged);
  return finish({ kubeConfig, source }, choice, searched);
}

function mergeFiles(k8s: KubernetesClient, files: readonly string[], searched: readonly string[]): Loaded {
  const merged: Loaded = { clusters: [], users: [], contexts: [], currentContext: '' };
  for (const file of files) {
    const one = new k8s.KubeConfig();
    try {
      one.loadFromFile(file);
    } catch (error) {
      throw new KubeconfigError(
        `the kubeconfig file ${file} cannot be read (${(error as Error).message})`,
        searched,
        'fix the file (`kubectl config view` shows what kubectl makes of it) or point KUBECONFIG elsewhere',
        { cause: error },
      );
    }
    // kubectl's merge: the first file to define a name, or the current context, wins.
    if (merged.currentContext === '' && one.currentContext) merged.currentContext = one.currentContext;
    for (const cluster of one.clusters)
      if (!merged.clusters.some((c) => c.name === cluster.name)) merged.clusters.push(cluster);
    for (const user of one.users)
      if (!merged.users.some((u) => u.name === user.name)) merged.users.push(user);
    for (const context of one.contexts)
      if (!merged.contexts.some((c) => c.name === context.name)) merged.contexts.push(context);
  }
  return merged;
}

function inClusterConfig(
  k8s: KubernetesClient,
  environment: KubeconfigEnvironment,
  searched: string[],
): { kubeConfig: KubeConfig; source: string; namespace: string | undefined } | undefined {
  const host = environment.env.KUBERNETES_SERVICE_HOST;
  const port = environment.env.KUBERNETES_SERVICE_PORT;
  const token = join(environment.serviceAccountDir, 'token');
  searched.push(`in-cluster service account (${token})`);
  if (!host || !port || !existsSync(token)) return undefined;
  const kubeConfig = new k8s.KubeConfig();
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name: 'inCluster',
        server,
        caFile: join(environment.serviceAccountDir, 'ca.crt'),
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: token } } }],
    contexts: [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser' }],
    currentContext: 'inClusterContext',
  });
  const namespaceFile = join(environment.serviceAccountDir, 'namespace');
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  return { kubeConfig, source: 'in-cluster service account', namespace: namespace || undefined };
}

function finish(
  loaded: { kubeConfig: KubeConfig; source: string; namespace?: string | undefined },
  choice: KubeconfigChoice,
  searched: readonly string[],
): ResolvedKubeconfig {
  const { kubeConfig } = loaded;
  const names = kubeConfig.getContexts().map((context) => context.name);
  const contextName = choice.context ?? kubeConfig.getCurrentContext();
  if (contextName === '' || contextName === undefined) {
    throw new KubeconfigError(
      `the kubeconfig (${loaded.source}) sets no current context`,
      searched,
      `pass the context option (one of: ${names.join(', ')}), or run \`kubectl config use-context NAME\``,
    );
  }
  const context = kubeConfig.getContextObject(contextName);
  if (context === null) {
    const guess = closestName(contextName, names);
    throw new KubeconfigError(
      `the kubeconfig (${loaded.source}) has no context ${JSON.stringify(contextName)}`,
      searched,
      `${guess === undefined ? '' : `did you mean ${JSON.stringify(guess)}? `}its contexts are: ${names.join(', ') || 'none'}`,
    );
  }
  kubeConfig.setCurrentContext(contextName);
  const cluster = kubeConfig.getCluster(context.cluster);
  if (cluster === null) {
    throw new KubeconfigError(
      `context ${JSON.stringify(contextName)} names cluster ${JSON.stringify(context.cluster)}, which the kubeconfig (${loaded.source}) does not define`,
      searched,
      'add the cluster to the kubeconfig or choose another context',
    );
  }
  if (context.user && kubeConfig.getUser(context.user) === null) {
    throw new KubeconfigError(
      `context ${JSON.stringify(contextName)} names user ${JSON.stringify(context.user)}, which the kubeconfig (${loaded.source}) does not define`,
      searched,
      'add the user to the kubeconfig or choose another context',
    );
  }
  return {
    kubeConfig,
    source: loaded.source,
    contextName,
    server: cluster.server,
    namespace: choice.namespace ?? context.namespace ?? loaded.namespace ?? 'default',
  };
}
