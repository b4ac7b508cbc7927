import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{events,eventstore,projections,api}/src/**/*.test.ts'],
    globalSetup: ['vitest.globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
