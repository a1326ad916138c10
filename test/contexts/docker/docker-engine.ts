/**
 * Shared set-up for the Docker tests: is an engine reachable, and is the test image there?
 * Without an engine, a CI run (CI=true) fails loudly; a developer machine skips with the reason.
 * A missing image is built once with scripts/build-test-image.sh (offline, from busybox-static).
 */

import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect } from 'vitest';
import {
  createDockerContext,
  type DockerContext,
  type DockerContextOptions,
} from '../../../src/contexts/docker/index.js';
import { inCI } from '../../support/ci.js';

export const TEST_IMAGE = 'berth-test:busybox';
/** The engine socket the tests' own raw requests use. */
export const ENGINE_SOCKET = process.env.DOCKER_HOST?.startsWith('unix://')
  ? process.env.DOCKER_HOST.slice('unix://'.length)
  : '/var/run/docker.sock';

/** A raw GET against the engine socket (the test's own view, independent of berth's client). */
export function engineGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: ENGINE_SOCKET, path, method: 'GET', timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('engine did not answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

async function probe(): Promise<{ available: boolean; reason: string }> {
  try {
    const ping = await engineGet('/_ping');
    if (ping.status !== 200)
      return { available: false, reason: `engine at ${ENGINE_SOCKET} answered HTTP ${ping.status}` };
  } catch (error) {
    return { available: false, reason: `no Docker engine at ${ENGINE_SOCKET} (${(error as Error).message})` };
  }
  const image = await engineGet(`/images/${encodeURIComponent(TEST_IMAGE)}/json`);
  if (image.status === 404) {
    const script = fileURLToPath(new URL('../../../scripts/build-test-image.sh', import.meta.url));
    try {
      execFileSync('bash', [script, TEST_IMAGE], { stdio: 'pipe', timeout: 120_000 });
    } catch (error) {
      throw new Error(
        `the test image ${TEST_IMAGE} is missing and scripts/build-test-image.sh failed: ${(error as Error).message}`,
      );
    }
  }
  return { available: true, reason: '' };
}

export const engine = await probe();
if (!engine.available && inCI()) {
  throw new Error(
    `Docker tests cannot run: ${engine.reason}. CI=true, so a missing engine fails the run; start dockerd (scripts/start-dockerd.sh)`,
  );
}
if (!engine.available) {
  console.warn(`[berth docker tests] skipped: ${engine.reason}; start dockerd to run them`);
}

/** `describe` that runs only with an engine, and checks that the file left no container behind. */
export function describeDocker(name: string, body: () => void): void {
  describe.skipIf(!engine.available)(name, () => {
    afterAll(async () => {
      expect(await leftoverContainers()).toEqual([]);
    });
    body();
  });
}

/** Names of containers this test process created and did not remove. */
export async function leftoverContainers(): Promise<string[]> {
  const filters = JSON.stringify({ label: [`dev.berth.owner.pid=${process.pid}`] });
  const listed = await engineGet(`/containers/json?all=1&filters=${encodeURIComponent(filters)}`);
  return (JSON.parse(listed.body) as { Names: string[] }[]).map((container) => container.Names.join(','));
}

/** A context on the test image with short timeouts suited to tests. */
export function testContext(options: DockerContextOptions = {}): DockerContext {
  return createDockerContext({ image: TEST_IMAGE, killGraceMs: 1000, destroyGraceMs: 1000, ...options });
}

/** Whether the engine lists `runtime`. */
export async function engineHasRuntime(runtime: string): Promise<boolean> {
  const info = JSON.parse((await engineGet('/info')).body) as { Runtimes?: Record<string, unknown> };
  return info.Runtimes?.[runtime] !== undefined;
}
