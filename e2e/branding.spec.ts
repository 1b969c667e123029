import { demoTenants } from './support/tenants';
import { expect, type Page, test } from './support/test';
import { urls } from './support/urls';

async function submitButtonColour(page: Page) {
  return page.locator('button[type="submit"]').evaluate((button) => getComputedStyle(button).backgroundColor);
}

function rgb(hex: string) {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${value >> 16}, ${(value >> 8) & 255}, ${value & 255})`;
}

// How each brand looks is the gallery's (accessibility.spec.ts: every page in every demo brand,
// compared with its picture); here, what the server's first answer already carries of it.
for (const locale of ['de-CH', 'fr-CH']) {
  test.describe(`every demo tenant is branded from the first frame, in ${locale}`, () => {
    // No JavaScript at all: what the browser paints first is exactly what the server sent.
    test.use({ javaScriptEnabled: false, locale });
    for (const tenant of demoTenants) {
      test(`${tenant.subdomain} in ${locale}: logo, button and card in the brand on /login and /register`, async ({
        page,
      }) => {
        await page.goto(`${urls.portal}/login?subdomain=${tenant.subdomain}&requestId=shot`);
        await expect(page.getByRole('img', { name: new RegExp(tenant.displayName) })).toBeVisible();
        const logoLoaded = await page
          .locator('img.layout-logo')
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0);
        expect(logoLoaded).toBe(true);
        expect(await submitButtonColour(page)).toBe(rgb(tenant.brand.primaryColor));
        await page.goto(`${urls.portal}/register?subdomain=${tenant.subdomain}&requestId=shot`);
        await expect(page.locator('input[type="password"]').first()).toBeVisible();
        // its submit waits for the JavaScript; the brand shows in the card's edge
        await expect(page.locator('.layout-card')).toHaveCSS(
          'border-top-color',
          rgb(tenant.brand.primaryColor),
        );
        // spec §2: the register page's way back to login is hidden for tenants flagged so
        const backToLogin = page.locator('a[href^="/login"]');
        await expect(backToLogin).toHaveCount(tenant.flags?.hideRegisterLoginLink ? 0 : 1);
      });
    }
  });
}

test('no brand request is made after the page has loaded', async ({ page }) => {
  const lateBrandRequests: string[] = [];
  let loaded = false;
  page.on('load', () => {
    loaded = true;
  });
  page.on('request', (request) => {
    if (loaded && /\/api\/designs|\/logo\/|\/css\/brand/.test(request.url()))
      lateBrandRequests.push(request.url());
  });
  await page.goto(`${urls.portal}/login?subdomain=alpenblick&requestId=late`);
  await page.waitForLoadState('networkidle');
  expect(lateBrandRequests).toEqual([]);
  // the tenant's stylesheet is applied, and hydration kept the brand
  await expect(page.locator('.layout-card')).toHaveCSS('border-top-color', rgb('#f59f00'));
  expect(await submitButtonColour(page)).toBe(rgb('#f59f00'));
});

test('the light brand colour gets dark button text, a dark one white text', async ({ page }) => {
  await page.goto(`${urls.portal}/login?subdomain=alpenblick`);
  await expect(page.locator('button[type="submit"]')).toHaveCSS('color', 'rgb(0, 0, 0)');
  await page.goto(`${urls.portal}/login?subdomain=r5`);
  await expect(page.locator('button[type="submit"]')).toHaveCSS('color', 'rgb(255, 255, 255)');
});

for (const hostile of [
  'javascript:alert(1)',
  '../../etc/passwd',
  'evil.example.com',
  '"><script>alert(1)</script>',
  'x'.repeat(300),
]) {
  test(`the hostile subdomain ${JSON.stringify(hostile.slice(0, 30))} shows the default brand and goes nowhere`, async ({
    page,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    const response = await page.goto(
      `${urls.portal}/login?subdomain=${encodeURIComponent(hostile)}&requestId=h`,
    );
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('img', { name: /Demo Immobilien AG/ })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).origin).toBe(urls.portal);
    expect(dialogs).toEqual([]);
  });
}

test('the page fits a 320 px wide phone without sideways scrolling', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 }, locale: 'de-CH' });
  const page = await context.newPage();
  await page.goto(`${urls.portal}/login?subdomain=r5&requestId=phone`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});
