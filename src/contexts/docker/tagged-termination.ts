/**
 * The tagged-process termination now lives in `src/contexts/shared/` (the Docker and Kubernetes
 * contexts both use it); this module keeps the old import path working.
 * @module
 */
export * from '../shared/tagged-termination.js';
