import { defineConfig } from 'vitest/config';

// One run for every unit and integration test; browser tests live in e2e/ (Playwright).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/{server,provider,mail-catcher,property-portal}/src/**/*.test.ts',
            'scripts/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['scripts/test-database.mjs'],
        },
      },
      'apps/portal/vitest.config.ts',
    ],
  },
});
