import { it } from 'vitest';
import { inCI } from '../../support/ci.js';
import { runDockerConformance } from './docker-conformance.js';
import { engine, engineHasRuntime } from './docker-engine.js';

// gVisor is optional on a developer machine; CI registers it (scripts/start-dockerd.sh), so there
// a missing runsc fails the run through spawn's own error.
const runsc = engine.available && (inCI() || (await engineHasRuntime('runsc')));

if (runsc) runDockerConformance('docker (runsc)', { runtime: 'runsc' });
else
  it.skip(`docker (runsc) conformance (skipped: ${engine.reason || 'the engine has no runsc runtime'})`, () =>
    undefined);
