import { type BrowserContext, test as base, type Page } from '@playwright/test';
import { urls } from './urls';

export { expect, type Page } from '@playwright/test';

/** A browser context kept for a worker's tests with the same options, and the page that keeps it warm. */
interface KeptContext {
  context: BrowserContext;
  anchor: Page;
}

/**
 * Clears what the origins stored beside their cookies. The apps keep nothing there today (sessions
 * are cookies; the relying party keeps its tokens in sessionStorage, which is the page's), but a test
 * that leaves something there must not hand it on.
 */
async function clearStorage({ context, anchor }: KeptContext) {
  const session = await context.newCDPSession(anchor);
  for (const url of [urls.portal, urls.provider, urls.propertyPortal]) {
    await session.send('Storage.clearDataForOrigin', {
      origin: new URL(url).origin,
      storageTypes: 'local_storage,indexeddb,cache_storage,service_workers',
    });
  }
  await session.detach();
}

/**
 * Playwright's `test`, its `context` kept across a worker's tests instead of made anew for each.
 *
 * Why: the browser tests are CPU-bound on this 2-core machine, and most are a few page loads long.
 * A new context, its page and one /login load cost 1.1–1.7 CPU-seconds (a renderer process for the
 * blank page, then another for the portal, each started cold); a new page and the same load in a
 * context that already holds a page of the same site 0.6–0.7, as the new page joins that page's
 * renderer process. Measured over the whole run: 304 s of test time and 166 s of wall time before,
 * 247 s and 134 s after.
 *
 * What a test still gets alone: its own page (so its own sessionStorage, listeners and routes, the
 * page fixture being made anew), no cookies (the provider's session and the portal's are cleared
 * after every test), no granted permissions and no routes. Listeners, headers and emulation set on a
 * context are not undone: a test that needs those makes a context of its own. What it shares: the HTTP cache (the scripts are
 * content-addressed, so a kept copy is the one the server would send) and the renderer process.
 * A retry gets a context of its own, as Playwright makes it, so its trace is complete.
 */
export const test = base.extend<object, { keptContexts: Map<string, KeptContext> }>({
  keptContexts: [
    async ({ browser: _browser }, use) => {
      const kept = new Map<string, KeptContext>();
      await use(kept);
      for (const { context } of kept.values()) await context.close();
    },
    { scope: 'worker' },
  ],
  context: async (
    { browser, keptContexts, locale, viewport, javaScriptEnabled, hasTouch, isMobile },
    use,
    testInfo,
  ) => {
    const options = { locale, viewport, javaScriptEnabled, hasTouch, isMobile };
    if (testInfo.retry > 0) {
      const fresh = await browser.newContext(options);
      await use(fresh);
      await fresh.close();
      return;
    }
    const key = JSON.stringify(options);
    let kept = keptContexts.get(key);
    if (!kept) {
      const context = await browser.newContext(options);
      const anchor = await context.newPage();
      await anchor.goto(`${urls.portal}/healthz`);
      kept = { context, anchor };
      keptContexts.set(key, kept);
    }
    await use(kept.context);
    for (const page of kept.context.pages()) if (page !== kept.anchor) await page.close();
    await kept.context.clearCookies();
    await kept.context.clearPermissions();
    await kept.context.unrouteAll();
    await clearStorage(kept);
  },
});
