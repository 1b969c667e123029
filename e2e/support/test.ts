import { type BrowserContext, test as base, type Page } from '@playwright/test';
import { urls } from './urls';

export { expect, type Locator, type Page } from '@playwright/test';

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
 * Playwright's `test`, its `context` kept across a worker's tests instead of made anew for each
 * (docs/decisions.md, "A browser-test worker keeps its browser context"): a new context and its
 * first page load cost Chromium about twice the CPU of a new page in a context that already holds a
 * page of the same site, whose renderer process the new page joins, and the browser tests are
 * CPU-bound.
 *
 * What a test still gets alone: its own page (its sessionStorage, listeners and routes go with it),
 * and, cleared after every test, the cookies (the provider's session and the portal's), granted
 * permissions, the context's routes and what the origins stored. What it shares: the HTTP cache
 * (the scripts are content-addressed) and the renderer process. Listeners, headers and emulation
 * set on a context are not undone, and only the options named below choose the context: a test
 * that needs more makes a context of its own. A retry gets a fresh context, so its trace is whole.
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
    // The context options the specs set (config and test.use): they choose the kept context.
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
