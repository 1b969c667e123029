import { createInvitation, createRegistrationCode } from './support/admin';
import { authorizationUrl, expectSignedIn, submitLogin, waitForHydration } from './support/flows';
import { expect, type Page, test } from './support/test';
import { urls } from './support/urls';
import { DEMO_USER, uniqueEmail } from './support/users';

// The journeys that used to trip tenants up (issue "Every screen works for an elderly tenant…"),
// each as the tenant walks it, with JavaScript and, where the form works without it, without.

const formRequestId = (page: Page) => page.locator('input[name="requestId"]').inputValue();
const isLive = async (requestId: string) =>
  (await fetch(`${urls.provider}/public-srv/public/${requestId}`)).ok;

/** A page opened without a request id comes with a fresh one; once the script runs, the address carries it. */
async function requestIdOf(page: Page): Promise<string> {
  await page.waitForURL((url) => url.searchParams.has('requestId'));
  await expect(page.locator('form')).toHaveAttribute('action', `${urls.provider}/login-srv/login`);
  return formRequestId(page);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test("signs in from the customer portal's request: the page comes with it checked", async ({ page }) => {
    await page.goto(authorizationUrl('property-portal-demo'));
    await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
    expect(await isLive(await formRequestId(page))).toBe(true);
    await submitLogin(page, DEMO_USER.email, DEMO_USER.password);
    // The provider takes the sign-in and sends the code to the customer portal's callback.
    await page.waitForURL((url) => url.href.startsWith(`${urls.propertyPortal}/callback`));
  });

  test('a bookmarked /login signs in: the page comes with a fresh request of its tenant', async ({
    page,
  }) => {
    await page.goto(`${urls.portal}/login?subdomain=demo`);
    expect(await isLive(await formRequestId(page))).toBe(true);
    await submitLogin(page, DEMO_USER.email, DEMO_USER.password);
    await page.waitForURL((url) => url.href.startsWith(`${urls.propertyPortal}/callback`));
  });

  test('/password-reset-init shows its form from the first frame', async ({ page }) => {
    await page.goto(`${urls.portal}/password-reset-init?subdomain=demo`);
    await expect(page.getByRole('textbox', { name: /E-Mail-Adresse|Email address/ })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test('Enter on a bookmarked /login before anything else has loaded signs in', async ({ page }) => {
  await page.goto(`${urls.portal}/login?subdomain=demo`, { waitUntil: 'commit' });
  await page.locator('input[name="username"]').fill(DEMO_USER.email);
  await page.locator('input[name="password"]').fill(DEMO_USER.password);
  await page.locator('input[name="password"]').press('Enter');
  await expectSignedIn(page, DEMO_USER.email);
});

test("the page's scripts start once its logo is there, then it hydrates and keeps what was typed", async ({
  page,
}) => {
  // The logo held back: the page has loaded only once it comes.
  let releaseLogo: () => void = () => undefined;
  const logoHeld = new Promise<void>((resolve) => {
    releaseLogo = resolve;
  });
  await page.route(
    (url) => url.pathname.startsWith('/logo/'),
    async (route) => {
      await logoHeld;
      await route.continue();
    },
  );
  const scriptsAsked: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scriptsAsked.push(new URL(request.url()).pathname);
  });
  await page.goto(`${urls.portal}/login?subdomain=demo`, { waitUntil: 'domcontentloaded' });
  // The start script, a module, has run before DOMContentLoaded: had it started the entry at once,
  // the entry's element would be in the page now.
  await expect(page.locator('script[data-entry]')).toHaveCount(1);
  expect(await page.locator('script[src*="/entry-client-"]').count()).toBe(0);
  expect(scriptsAsked.some((path) => path.includes('/entry-client-'))).toBe(false);
  await page.locator('input[name="username"]').fill(DEMO_USER.email);
  releaseLogo();
  await page.locator('input[name="password"]').fill(DEMO_USER.password);
  await page.waitForFunction(() =>
    Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')),
  );
  // Hydrated: the show-password button works only now (before, it is markup alone).
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.locator('input[name="password"]')).toHaveAttribute('type', 'text');
  await expect(page.locator('input[name="username"]')).toHaveValue(DEMO_USER.email);
  expect(scriptsAsked.some((path) => path.includes('/entry-client-'))).toBe(true);
});

test('an expired sign-in request brings the tenant back to their own page, ready to sign in again', async ({
  page,
}) => {
  // The tenant comes from their portal: the page is served with the request id and the tenant.
  await page.goto(authorizationUrl('property-portal-lacleman'));
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  const served = await formRequestId(page);
  // As the provider sends a sign-in whose request has expired back: no tenant, only the dead id.
  await page.goto(
    `${urls.portal}/login?error=session_expired&requestId=${served}&username=${encodeURIComponent(DEMO_USER.email)}&lang=fr`,
  );
  await expect(page.locator('img.layout-logo')).toHaveAttribute('alt', /Gérance du Léman/);
  await expect(page.getByText('La demande de connexion a expiré. Veuillez vous reconnecter.')).toBeVisible();
  await expect(page.locator('input[name="username"]')).toHaveValue(DEMO_USER.email);
  expect(await isLive(await formRequestId(page))).toBe(true);
});

test("each tenant's pages in one tab use a request of that tenant's client", async ({ page }) => {
  await page.goto(`${urls.portal}/login?subdomain=demo`);
  const demoRequest = await requestIdOf(page);
  await page.goto(`${urls.portal}/login?subdomain=r5`);
  const r5Request = await requestIdOf(page);
  expect(r5Request).not.toBe(demoRequest);
  const info = await (await fetch(`${urls.provider}/public-srv/public/${r5Request}`)).json();
  expect(info.data.client_name).toMatch(/R5/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test("a wrong code's message does not move the terms checkbox from under the tap", async ({ page }) => {
    await page.goto(`${urls.portal}/register?subdomain=demo&lang=de`);
    // The message comes when the field is left, which needs the page's script: before it has taken
    // the page over, the tap only checks the box, and the message waits for the submit.
    await waitForHydration(page);
    const code = page.getByRole('textbox', { name: /Registrierungscode/ });
    await code.fill('1234-falsch');
    const terms = page.getByRole('checkbox');
    await terms.scrollIntoViewIfNeeded();
    const box = (await terms.boundingBox())!;
    // The tap lands where the checkbox was when the finger came down.
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await expect(terms).toBeChecked();
    await expect(page.getByText(/Registrierungscode hat nicht das richtige Format/)).toBeVisible();
  });

  test('an invitation shows its e-mail and whole code as text, and a withdrawn one says so', async ({
    page,
  }) => {
    const email = uniqueEmail('invited');
    const invitation = await createInvitation(email);
    await fetch(`${urls.portal}/api/admin/invitations/${invitation.id}/revoke`, {
      method: 'POST',
      headers: { authorization: 'Bearer e2e-server-admin-token' },
    });
    await page.goto(
      `${urls.portal}/register?subdomain=demo&lang=en&invite_id=${invitation.id}&email=${encodeURIComponent(email)}&registrationcode=${invitation.code}`,
    );
    const code = page.getByRole('group', { name: 'Registration code' });
    await expect(code).toContainText(invitation.code);
    const overflow = await code.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByLabel(/^Password/).fill('Sonnen-Weg7!');
    await page.getByLabel(/^Repeat password/).fill('Sonnen-Weg7!');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'Your property manager has withdrawn this invitation.',
    );
    await expect(page.getByRole('contentinfo')).toContainText('+41 44 123 45 67');
  });
});

test('the code from the letter registers typed in capitals with spaces', async ({ page }) => {
  const code = await createRegistrationCode();
  await page.goto(`${urls.portal}/register?subdomain=demo&lang=en`);
  // The code is shown as printed when the field is left, which needs the page's script: the button
  // is enabled before it runs (the form works without it), so wait for React to take the page over.
  await waitForHydration(page);
  await page.getByLabel(/^Email address/).fill(uniqueEmail('letter'));
  await page.getByLabel(/^Password/).fill('Älter-Weg7!');
  await page.getByLabel(/^Repeat password/).fill('Älter-Weg7!');
  await page
    .getByRole('textbox', { name: /^Registration code/ })
    .fill(code.toUpperCase().replaceAll('-', ' '));
  await page.getByRole('checkbox').check();
  await expect(page.getByRole('textbox', { name: /^Registration code/ })).toHaveValue(code);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('status')).toBeVisible();
});

test('the language can be changed on every page, keeping where the tenant is', async ({ page }) => {
  await page.goto(`${urls.portal}/password-reset-init?subdomain=r5&email=anna%40example.ch`);
  await page.getByRole('link', { name: 'Italiano' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  const url = new URL(page.url());
  expect(url.pathname).toBe('/password-reset-init');
  expect(url.searchParams.get('subdomain')).toBe('r5');
  expect(url.searchParams.get('email')).toBe('anna@example.ch');
  await expect(page.getByRole('textbox', { name: /Indirizzo e-mail/ })).toHaveValue('anna@example.ch');
});
