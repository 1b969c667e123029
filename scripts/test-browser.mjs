// The browser the browser tests drive (e2e/playwright.config.ts; `npm test` installs it first).
// Debian's headless build of Chromium when it is there: the same source and version as
// /usr/bin/chromium, its engine without the browser's windows, tabs and profile services, and what
// Playwright runs for headless tests when it downloads its own; the tests take a fifth less time
// in it, every test and picture alike (docs/decisions.md, "The browser tests run in Debian's
// headless Chromium"). It shows no window: a run to watch (`--headed`) takes the whole browser,
// `CHROMIUM_PATH=/usr/bin/chromium`.
import { existsSync } from 'node:fs';

/** Debian's package `chromium`. */
export const FULL_CHROMIUM = '/usr/bin/chromium';
/** Debian's package `chromium-headless-shell`. */
export const HEADLESS_CHROMIUM = '/usr/lib/chromium/chromium-headless-shell';

/**
 * `CHROMIUM_PATH` when set, else the headless build when installed, else the whole browser.
 * @param {Record<string, string | undefined>} [env]
 * @param {(path: string) => boolean} [isInstalled]
 */
export function testBrowserPath(env = process.env, isInstalled = existsSync) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return isInstalled(HEADLESS_CHROMIUM) ? HEADLESS_CHROMIUM : FULL_CHROMIUM;
}
