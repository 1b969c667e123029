import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser; flags for a closed network and no sandbox (root).
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  outputDir: '../test-results/e2e',
  // A walk through several pages with the provider and mails takes 5–15 s on this 2-core machine; on
  // a machine busy with other work (issue 11: two other processes on both cores) twice as long.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json']],
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    locale: 'en-GB',
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
});
