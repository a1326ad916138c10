import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real processes, real containers: give slow machines room, never retry a flaky result away.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The per-command supervisor is built from native/ when stale; tests that run the built CLI
    // rebuild dist/ first when src/ is newer than the last build.
    globalSetup: ['test/support/supervisor-build.ts', 'test/support/fresh-dist.ts'],
    // After each test, processes still carrying one of its markers are killed (test/support/process-markers.ts).
    setupFiles: ['test/support/setup.ts'],
  },
});
