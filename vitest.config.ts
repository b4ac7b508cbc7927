import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['vitest.globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            '{events,eventstore,projections,kafka,api,admin-ui}/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        // The browser suite: real Chromium against the real server; builds the UI once per run.
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page loaded or reloaded beside the whole suite on two cores can take over a second
          // to show what a poll waits for (1 s is vitest's default); what never shows still fails.
          expect: { poll: { timeout: 5_000 } },
        },
      },
    ],
  },
});
