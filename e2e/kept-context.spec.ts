import type { BrowserContext } from '@playwright/test';
import { expect, test } from './support/test';
import { urls } from './support/urls';

// The tests share a worker's browser context (support/test.ts): what one leaves behind must not
// reach the next. Serial, so that both run in one worker, one after the other, in the same context.
test.describe.configure({ mode: 'serial' });

let contextOfTheFirst: BrowserContext | undefined;

const ROUTED = '/left-behind-by-a-route';

test('a test leaves a cookie, stored data, a granted permission and a route behind', async ({
  page,
  context,
}) => {
  contextOfTheFirst = context;
  await page.goto(`${urls.portal}/login?subdomain=demo`);
  await context.addCookies([{ name: 'left-behind', value: '1', url: urls.portal }]);
  await context.grantPermissions(['clipboard-read'], { origin: urls.portal });
  await context.route(`**${ROUTED}`, (route) => route.fulfill({ status: 200, body: 'routed' }));
  await page.evaluate(() => {
    localStorage.setItem('left-behind', '1');
    sessionStorage.setItem('left-behind', '1');
  });
  expect((await context.cookies(urls.portal)).map((cookie) => cookie.name)).toContain('left-behind');
});

test('the next test finds none of it, in the same context', async ({ page, context }) => {
  expect(context).toBe(contextOfTheFirst);
  await page.goto(`${urls.portal}/login?subdomain=demo`);
  expect((await context.cookies(urls.portal)).map((cookie) => cookie.name)).not.toContain('left-behind');
  expect(
    await page.evaluate(() => [localStorage.getItem('left-behind'), sessionStorage.getItem('left-behind')]),
  ).toEqual([null, null]);
  expect(
    await page.evaluate(
      async () => (await navigator.permissions.query({ name: 'clipboard-read' as PermissionName })).state,
    ),
  ).not.toBe('granted');
  expect((await page.goto(`${urls.portal}${ROUTED}`))?.status()).toBe(404);
});
