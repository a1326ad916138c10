/**
 * The conformance suite against the Docker context, for one runtime. Every handle is its own
 * container; the suite's cases share files between handles (a gate file, a pid file), so all
 * handles mount one host directory as their working directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { SpawnConfig } from '../../../src/contract/types.js';
import { runConformanceSuite } from '../../../src/testing/suite.js';
import { leftoverContainers, testContext } from './docker-engine.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };

export function runDockerConformance(name: string, extra: Partial<SpawnConfig> = {}): void {
  const shared = mkdtempSync(join(tmpdir(), 'berth-docker-conformance-'));
  runConformanceSuite({
    name,
    createContext: () => testContext(outputPolicy),
    disposeContext: async (context) => {
      await (context as ReturnType<typeof testContext>).close();
      rmSync(shared, { recursive: true, force: true });
    },
    spawnConfig: { ...extra, cwd: '/shared', mounts: [{ source: shared, target: '/shared' }] },
    outputPolicy,
    spillLocation: 'host',
    // Containers on the default bridge reach the host through its gateway.
    networkHost: '172.17.0.1',
    expectedFailures: [],
    // Each handle is a container that outlives its commands' leftovers until destroy.
    leftovers: 'kept-until-destroy',
  });
  afterAll(async () => {
    expect(await leftoverContainers()).toEqual([]);
  });
}
