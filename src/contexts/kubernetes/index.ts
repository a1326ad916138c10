/**
 * `berth/kubernetes`: the ExecutionContext contract on a Kubernetes cluster, one pod per handle.
 * Needs the optional peer dependency `@kubernetes/client-node` 1.x, loaded on first use.
 * @module
 */
export * from '../../errors/index.js';
export type { KubernetesContextOptions } from './context-options.js';
export {
  KubeconfigError,
  KubernetesApiError,
  KubernetesClientMissingError,
  KubernetesForbiddenError,
  KubernetesQuotaError,
  KubernetesUnavailableError,
  PodEvictedError,
  PodGoneError,
  PodImagePullError,
  PodStartError,
  type PodStartFailure,
} from './errors.js';
export {
  createKubernetesContext,
  KUBERNETES_CAPABILITIES,
  type KubernetesContext,
  sweepKubernetesPods,
} from './kubernetes-context.js';
export {
  HANDLE_LABEL,
  HEARTBEAT_ANNOTATION,
  HEARTBEAT_INTERVAL_ANNOTATION,
  MANAGED_LABEL,
  OWNER_HOST_ANNOTATION,
  OWNER_LABEL,
  OWNER_PID_ANNOTATION,
} from './ownership.js';
export {
  checkKubernetesAccess,
  type KubernetesAccess,
  type Permission,
  type PermissionReview,
  REQUIRED_PERMISSIONS,
} from './permissions.js';
export type { PodProgress, PodStage } from './pod-lifecycle.js';
export type { KubernetesPodTemplate, KubernetesSpawnConfig, KubernetesSpawnExtras } from './pod-spec.js';
