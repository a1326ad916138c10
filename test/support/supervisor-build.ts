/**
 * vitest global setup: every run starts with the package's supervisor built from the current
 * `native/supervise.c` (builds are keyed by a hash of the source, so a stale one is never used).
 * Cheap when it exists (one hash and a stat). Fails the run when it cannot be built.
 */
import { buildPackagedSupervisor } from '../../src/subprocess/supervisor-location.js';

export default function setup(): void {
  if (process.platform !== 'linux') return;
  const outcome = buildPackagedSupervisor();
  if (outcome.state === 'failed') throw new Error(`berth-supervise could not be built: ${outcome.reason}`);
}
