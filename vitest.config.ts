import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Real processes, real containers: give slow machines room, never retry a flaky result away.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
