import { defineConfig } from '@playwright/test';
import { testBrowserPath } from '../scripts/test-browser.mjs';

// Debian's Chromium, its headless build where installed (scripts/test-browser.mjs), never a
// downloaded browser; flags for a closed network and no sandbox (root).
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
  // The gallery (accessibility.spec.ts): one picture per page state, e2e/gallery/<folder>/<state>.png.
  snapshotPathTemplate: '{testDir}/gallery/{arg}{ext}',
  // A missing picture is written and fails its test, which is not tried again (a retry would compare
  // with what the first try wrote, and pass). Never 'missing': that writes and passes. The command
  // line's --update-snapshots renews the pictures (README, "Tests").
  updateSnapshots: 'default',
  // A walk through several pages with the provider and mails takes 5–15 s on this 2-core machine; on
  // a machine busy with other work (issue 11: two other processes on both cores) twice as long.
  timeout: 60_000,
  expect: {
    timeout: 10_000,
    // The gallery's comparison: pictures at CSS pixels, still, without a caret (the viewport and the
    // masks are the walks'). Two whole runs here gave the same pixels, every one; the tolerance leaves
    // 10 pixels that moved more than 5 % in colour, and fails on a changed character (20 pixels,
    // "?" → "!") or brand shade (#1864ab → #1971c2: 1,400–20,000 pixels a picture).
    toHaveScreenshot: {
      animations: 'disabled',
      caret: 'hide',
      scale: 'css',
      threshold: 0.05,
      maxDiffPixels: 10,
    },
  },
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json']],
  use: {
    launchOptions: { executablePath: testBrowserPath(), args: chromiumArgs },
    locale: 'en-GB',
    // For every file alike: `trace` is a worker option, and a file that set its own (the accessibility
    // and no-JavaScript files had 'off') ran in workers of its own, started anew with their browser
    // and kept contexts when the run moved on to the other files (issue 27: 6 workers instead of 2).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
});
