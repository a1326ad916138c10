import { it } from 'vitest';
import { runDockerConformance } from './docker-conformance.js';
import { engine } from './docker-engine.js';

if (engine.available) runDockerConformance('docker');
else it.skip(`docker conformance (skipped: ${engine.reason})`, () => undefined);
