/**
 * The conformance suite against the E2B context on the fake SDK (real processes on this machine,
 * one bubblewrapped "machine" per sandbox). Each handle is its own sandbox: nothing is shared
 * between handles, as between two E2B sandboxes.
 */
import { afterAll, expect } from 'vitest';
import { createE2BContext } from '../../../src/contexts/e2b/index.js';
import { runConformanceSuite } from '../../../src/testing/suite.js';
import { FakeE2BService } from './fake-e2b.js';

const outputPolicy = { maxOutputBytes: 64 * 1024, maxSpillBytes: 1024 * 1024 };
const service = new FakeE2BService();

runConformanceSuite({
  name: 'e2b (fake SDK)',
  createContext: () =>
    createE2BContext({
      sdk: service.sdk,
      apiKey: service.apiKey,
      ...outputPolicy,
      killGraceMs: 2000,
      destroyGraceMs: 2000,
    }),
  disposeContext: async (context) => {
    await (context as ReturnType<typeof createE2BContext>).close();
  },
  outputPolicy,
  spillLocation: 'context',
  handles: 'isolated',
  leftovers: 'kept-until-destroy',
  expectedFailures: [
    // Each handle is its own sandbox: the case opens the moved task's gate through the main
    // handle, which cannot see the first sandbox's files (see docs/conformance.md).
    'background/reassign',
  ],
});

afterAll(() => {
  const leaked = service.livePids();
  service.shutdown();
  expect(leaked, 'processes of fake sandboxes still running after close').toEqual([]);
});
