/**
 * The glob attack through the docker context: the listing comes from the container, the matching
 * happens on the host (the shared glob engine), so a pattern of 20 `*` against a 34-character name
 * must not hold the host's timers either.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DockerContext } from '../../../src/contexts/docker/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { timerLateness } from '../../helpers/timer-lateness.js';
import { describeDocker, testContext } from './docker-engine.js';

const NAME = `${'a'.repeat(33)}b`;

describeDocker('docker: glob patterns cannot freeze the host', () => {
  let context: DockerContext;
  let handle: ContextHandle;
  beforeAll(async () => {
    context = testContext();
    handle = await context.spawn({ cwd: '/srv' });
    await context.writeFile(handle, `/srv/${NAME}`, 'x');
  });
  afterAll(() => context.close());

  for (const pattern of [`${'*'.repeat(20)}z`, `${'*a'.repeat(20)}z`]) {
    it(pattern, async () => {
      const { result, maxLatenessMs } = await timerLateness(() =>
        context.listFiles(handle, `/srv/${pattern}`),
      );
      expect(result).toEqual([]);
      expect(maxLatenessMs).toBeLessThan(1000);
      const fits = await context.listFiles(handle, `/srv/${pattern.replace(/z$/, 'b')}`);
      expect(fits.map((entry) => entry.path)).toEqual([`/srv/${NAME}`]);
    });
  }
});
