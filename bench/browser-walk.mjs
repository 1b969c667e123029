// A person's first visit, driven in Debian's Chromium over a running stack: sign-in with the demo
// account from the demo property portal, a registration with a code (activated through the
// e-mailed link) and a password reset of that new account, which then signs in. The same steps as
// the browser tests (e2e/registration.spec.ts, e2e/password-reset.spec.ts), written again here in
// plain JavaScript: e2e/support is TypeScript on Playwright's test runner, which the bench does not
// load. Fields are found by name; the one text waited for is the activation's (German, de-CH).
import { randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';

/**
 * Debian's Chromium, the whole browser as a tenant has it (the browser tests take its headless build,
 * scripts/test-browser.mjs), and the flags for this closed network, as the browser tests start it.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const DEMO_USER = { email: 'demo@concierge.test', password: 'Demo-Passw0rd!' };
// `npm start`'s server takes the development admin token (apps/server/src/config.ts).
const DEV_ADMIN_API_TOKEN = 'concierge-dev-admin-token';
const STEP_TIMEOUT_MS = 20_000;

/** @typedef {{ portal: string, provider: string, propertyPortal: string, mail: string }} StackUrls */

/** @param {StackUrls} urls */
export async function createRegistrationCode(urls) {
  const response = await fetch(`${urls.portal}/api/admin/codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_ADMIN_API_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'demo', count: 1 }),
  });
  const body = await response.json();
  const code = body?.data?.codes?.[0]?.code;
  if (!code) throw new Error(`admin API, new code: ${JSON.stringify(body)}`);
  return code;
}

/** Waits for an e-mail to `to` at the mail catcher with a link to `pathname`. @param {StackUrls} urls */
export async function linkFromMail(urls, to, pathname, notBefore = new Set()) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const response = await fetch(`${urls.mail}/api/messages?to=${encodeURIComponent(to)}`);
    for (const message of await response.json()) {
      const link = message.links.find((href) => new URL(href).pathname === pathname && !notBefore.has(href));
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail to ${to} with a link to ${pathname} within ${STEP_TIMEOUT_MS / 1000} s`);
}

/** @param {import('playwright-core').Page} page @param {StackUrls} urls */
async function startSignIn(page, urls) {
  await page.goto(urls.propertyPortal);
  await page.getByTestId('sign-in').click();
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
}

/** @param {import('playwright-core').Page} page @param {StackUrls} urls */
async function signIn(page, urls, email, password) {
  await startSignIn(page, urls);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(
    (url) => url.href.startsWith(urls.propertyPortal) && !url.pathname.startsWith('/callback'),
  );
  const shown = await page.getByTestId('user-email').textContent();
  if (shown !== email) throw new Error(`signed in as ${email}, the property portal shows ${shown}`);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-in').waitFor();
}

/**
 * @param {StackUrls} urls
 * @returns {Promise<{ steps: { name: string, ms: number }[] }>}
 */
export async function browserWalk(urls) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const steps = [];
  /** @type {import('playwright-core').Page | undefined} */
  let page;
  const step = async (name, action) => {
    const started = performance.now();
    try {
      await action();
    } catch (error) {
      // Where the walk stood and what the page said, so that a failure explains itself.
      const alerts = await page
        ?.locator('[role="alert"]')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `browser walk, step "${name}", at ${page?.url()}${alerts?.length ? ` (alert: ${alerts.join(' / ')})` : ''}: ${error instanceof Error ? error.message : error}`,
      );
    }
    steps.push({ name, ms: performance.now() - started });
  };
  try {
    const context = await browser.newContext({ locale: 'de-CH' });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    page = await context.newPage();

    await step('sign-in (demo account)', () => signIn(page, urls, DEMO_USER.email, DEMO_USER.password));

    const email = `bench-${randomUUID().slice(0, 8)}@example.ch`;
    const password = 'Balkon-Blume9!';
    await step('registration and activation', async () => {
      const code = await createRegistrationCode(urls);
      await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
      await page.locator('input[name="email"]').fill(email);
      await page.locator('input[name="new-password"]').fill(password);
      await page.locator('input[name="new-password-confirmation"]').fill(password);
      await page.locator('input[name="terms"]').check();
      await page.locator('form button[type="submit"]').click();
      await page.getByRole('status').filter({ hasText: email }).waitFor();
      await page.goto(await linkFromMail(urls, email, '/verification-complete'));
      // The page activates the account from the browser, then says so (as e2e/registration.spec.ts).
      await page.getByRole('status').getByText('Ihr Konto ist aktiviert').waitFor();
    });

    const newPassword = 'Neues-Fenster4!';
    await step('password reset', async () => {
      await startSignIn(page, urls);
      const requestId = new URL(page.url()).searchParams.get('requestId');
      await page.goto(`${urls.portal}/password-reset-init?subdomain=demo&requestId=${requestId}`);
      await page.locator('input[name="email"]').fill(email);
      await page.locator('form button[type="submit"]').click();
      await page.getByRole('status').waitFor();
      await page.goto(await linkFromMail(urls, email, '/password-set'));
      await page.locator('input[name="new-password"]').fill(newPassword);
      await page.locator('input[name="new-password-confirmation"]').fill(newPassword);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL((url) => url.pathname === '/password-set-success');
    });

    await step('sign-in (new account, new password)', () => signIn(page, urls, email, newPassword));
    await context.close();
  } finally {
    await browser.close();
  }
  return { steps };
}
