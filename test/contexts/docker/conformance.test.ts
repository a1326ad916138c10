import { afterAll, expect, it } from 'vitest';
import { runConformanceSuite } from '../../../src/testing/suite.js';
import { engine, leftoverContainers, testContext } from './docker-engine.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

if (engine.available) {
  runConformanceSuite({
    name: 'docker',
    createContext: () => testContext(outputPolicy),
    disposeContext: (context) => (context as ReturnType<typeof testContext>).close(),
    outputPolicy,
    spillLocation: 'host',
    networkHost: '172.17.0.1',
  });
  afterAll(async () => {
    expect(await leftoverContainers()).toEqual([]);
  });
} else {
  it.skip(`docker conformance (skipped: ${engine.reason})`, () => undefined);
}
