/**
 * A command's environment now lives in `src/contexts/shared/` (the Docker and Kubernetes contexts
 * both use it); this module keeps the old import path working.
 * @module
 */
export * from '../shared/command-env.js';
