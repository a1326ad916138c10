/**
 * Doctor check for the kubernetes context: the cluster of the kubeconfig (found as kubectl finds
 * it) is reachable, and these credentials have each permission the context needs.
 * @module
 */
import { checkKubernetesAccess, KubeconfigError } from '../../contexts/kubernetes/index.js';
import { isBerthError } from '../../errors/index.js';
import { type DoctorCheck, messageOf, within } from './check.js';

/** The kubeconfig choice (the doctor's `--kubeconfig`, `--kube-context`, `--namespace`). */
export interface KubernetesChoice {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly namespace?: string | undefined;
}

const ROLE_FIX = (namespace: string) =>
  `have a cluster admin bind the Role of docs/kubernetes.md to these credentials: \`kubectl apply -n ${namespace} -f role.yaml\` (the manifest there)`;

/** Reach the cluster and review the permissions; `skip` when nothing configures a cluster here. */
export async function checkKubernetes(choice: KubernetesChoice): Promise<DoctorCheck> {
  const base = { id: 'kubernetes', title: 'Kubernetes cluster' };
  const chosen = choice.kubeconfig !== undefined || choice.context !== undefined;
  let access: Awaited<ReturnType<typeof checkKubernetesAccess>>;
  try {
    access = await within(
      30_000,
      'the Kubernetes API server',
      checkKubernetesAccess({ ...choice, requestTimeoutMs: 10_000 }),
    );
  } catch (error) {
    if (isBerthError(error, 'E_KUBERNETES_CLIENT_MISSING')) {
      return { ...base, status: 'skip', detail: messageOf(error) };
    }
    if (error instanceof KubeconfigError && !chosen && /no Kubernetes configuration/.test(error.message)) {
      return {
        ...base,
        status: 'skip',
        detail: `no kubeconfig here (looked at: ${error.searched.join(', ')}); only --context kubernetes needs one`,
      };
    }
    return {
      ...base,
      status: 'fail',
      detail: messageOf(error),
      fix: 'check the same kubeconfig with `kubectl version` and `kubectl auth can-i create pods`',
    };
  }
  const checks: DoctorCheck[] = access.permissions.map(({ permission, allowed, reason }) => {
    const title = `${permission.verb} ${permission.resource}`;
    if (allowed) {
      return {
        id: `kubernetes-rbac`,
        title,
        status: 'ok',
        detail: `allowed (${permission.why})${reason ? `: ${reason}` : ''}`,
      };
    }
    // API servers from 1.31 authorize the exec upgrade as create; only older ones need get.
    const olderOnly = permission.verb === 'get' && permission.resource === 'pods/exec';
    return {
      id: `kubernetes-rbac`,
      title,
      status: olderOnly ? 'warn' : 'fail',
      detail: `denied in namespace ${access.namespace}; needed for ${permission.why}`,
      fix: ROLE_FIX(access.namespace),
    };
  });
  const denied = checks.filter((check) => check.status === 'fail').map((check) => check.title);
  return {
    ...base,
    status: denied.length === 0 ? (checks.some((c) => c.status === 'warn') ? 'warn' : 'ok') : 'fail',
    detail:
      denied.length === 0
        ? `reachable: Kubernetes ${access.serverVersion} (${access.description}); every permission the context needs is granted`
        : `reachable: Kubernetes ${access.serverVersion} (${access.description}); missing permissions: ${denied.join(', ')}`,
    ...(denied.length === 0 ? {} : { fix: ROLE_FIX(access.namespace) }),
    checks,
  };
}
