/**
 * `berth/kubernetes`: a pod per handle on a Kubernetes cluster, through `@kubernetes/client-node`
 * 1.x (an optional peer dependency, loaded on first use).
 * @module
 */
export type { KubernetesContextOptions } from '../contexts/kubernetes/context-options.js';
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
} from '../contexts/kubernetes/errors.js';
export {
  createKubernetesContext,
  type KubernetesContext,
  sweepKubernetesPods,
} from '../contexts/kubernetes/kubernetes-context.js';
export {
  checkKubernetesAccess,
  type KubernetesAccess,
  type Permission,
  type PermissionReview,
  REQUIRED_PERMISSIONS,
} from '../contexts/kubernetes/permissions.js';
export type { PodProgress, PodStage } from '../contexts/kubernetes/pod-lifecycle.js';
export type {
  KubernetesPodTemplate,
  KubernetesSpawnConfig,
  KubernetesSpawnExtras,
} from '../contexts/kubernetes/pod-spec.js';
