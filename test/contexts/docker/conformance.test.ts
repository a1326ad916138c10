import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runConformanceSuite } from '../../../src/testing/suite.js';
import { engine, leftoverContainers, testContext } from './docker-engine.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

if (engine.available) {
  // Every handle is its own container; the suite's cases share files between handles (a gate file,
  // a pid file), so all handles mount one host directory as their working directory.
  const shared = mkdtempSync(join(tmpdir(), 'berth-docker-conformance-'));
  runConformanceSuite({
    name: 'docker',
    createContext: () => testContext(outputPolicy),
    disposeContext: async (context) => {
      await (context as ReturnType<typeof testContext>).close();
      rmSync(shared, { recursive: true, force: true });
    },
    spawnConfig: { cwd: '/shared', mounts: [{ source: shared, target: '/shared' }] },
    outputPolicy,
    spillLocation: 'host',
    // Containers on the default bridge reach the host through its gateway.
    networkHost: '172.17.0.1',
    expectedFailures: [
      // The test image's busybox-static wget crashes (SIGSEGV) whenever -T (timeout) is given, and
      // the probe passes -T 5. network.test.ts proves the network path with wget without -T.
      'network/reachable',
    ],
  });
  afterAll(async () => {
    expect(await leftoverContainers()).toEqual([]);
  });
} else {
  it.skip(`docker conformance (skipped: ${engine.reason})`, () => undefined);
}
