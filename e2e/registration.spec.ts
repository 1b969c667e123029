import { axeViolations } from './support/accessibility';
import { createInvitation, createRegistrationCode } from './support/admin';
import { expectSignedIn, startSignIn, submitLogin } from './support/flows';
import { linkFromLatestMail } from './support/mail';
import { expect, type Page, test } from './support/test';
import { urls } from './support/urls';
import { uniqueEmail } from './support/users';

const PASSWORD = 'Balkon-Blume9!';

async function fillRegistration(page: Page, email: string, code: string) {
  await page.getByLabel('E-Mail-Adresse', { exact: false }).first().fill(email);
  await page.locator('input[type="password"]').nth(0).fill(PASSWORD);
  await page.locator('input[type="password"]').nth(1).fill(PASSWORD);
  const codeField = page.getByLabel('Registrierungscode', { exact: false });
  if (await codeField.isEditable()) await codeField.fill(code);
}

async function acceptTerms(page: Page) {
  await page.getByRole('button', { name: 'Nutzungsbedingungen lesen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('1. Gegenstand')).toBeVisible();
  await dialog.getByRole('button', { name: 'Akzeptieren' }).click();
  await expect(page.getByRole('checkbox')).toBeChecked();
  // The dialog has gone, and with it whatever stood in for the page while its texts loaded: on a
  // loaded run axe once found two banner landmarks right after the click (cause not found yet).
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('banner')).toHaveCount(1);
}

/** The page's layout shift so far (Chromium's layout-shift entries, which the page keeps from its start). */
function layoutShiftOf(page: Page): Promise<number> {
  return page.evaluate(() => {
    const observer = new PerformanceObserver(() => undefined);
    observer.observe({ type: 'layout-shift', buffered: true });
    const shifts = observer.takeRecords() as (PerformanceEntry & { value: number })[];
    observer.disconnect();
    return shifts.reduce((sum, shift) => sum + shift.value, 0);
  });
}

test.use({ locale: 'de-CH' });

test('registers with a code, activates by e-mail, sees "already activated" the second time and signs in', async ({
  page,
}) => {
  const email = uniqueEmail('neu');
  const code = await createRegistrationCode('demo');
  await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
  await expect(page.getByLabel('Registrierungscode', { exact: false })).toHaveValue(code);
  await fillRegistration(page, email, code);
  await acceptTerms(page);
  expect(await axeViolations(page, 'all rules')).toEqual([]);
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('status')).toContainText(email);

  const { link } = await linkFromLatestMail(email, '/verification-complete');
  expect(link.searchParams.get('subdomain')).toBe('demo');
  await page.goto(link.href);
  await expect(page.getByRole('status')).toContainText('Ihr Konto ist aktiviert');
  // The outcome takes the place the page kept for it: nothing below the button moved.
  expect(await layoutShiftOf(page)).toBe(0);
  await page.goto(link.href);
  await expect(page.getByRole('status')).toContainText('Ihr Konto ist bereits aktiviert');

  await startSignIn(page);
  await submitLogin(page, email, PASSWORD);
  await expectSignedIn(page, email);
});

test('an invitation shows e-mail and code as fixed text and registers', async ({ page }) => {
  const email = uniqueEmail('eingeladen');
  const invitation = await createInvitation(email, 'demo', 'de');
  const { link } = await linkFromLatestMail(email, '/register');
  await page.goto(link.href);
  await expect(page.getByRole('group', { name: 'E-Mail-Adresse' })).toContainText(email);
  await expect(page.getByRole('group', { name: 'Registrierungscode' })).toContainText(invitation.code);
  await expect(page.getByRole('textbox', { name: /E-Mail-Adresse|Registrierungscode/ })).toHaveCount(0);
  await page.locator('input[type="password"]').nth(0).fill(PASSWORD);
  await page.locator('input[type="password"]').nth(1).fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('status')).toContainText(email);
});

test('a used code and an unknown code are refused with what to do next', async ({ page }) => {
  const code = await createRegistrationCode('demo');
  await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
  await fillRegistration(page, uniqueEmail('erst'), code);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('status')).toBeVisible();

  await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
  await fillRegistration(page, uniqueEmail('zweit'), code);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('alert')).toContainText('Dieser Registrierungscode wurde bereits verwendet');

  const unknown = '3f1b6c1e-8d2a-4c47-9a4e-2b7d9e0c5f11';
  await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${unknown}`);
  await fillRegistration(page, uniqueEmail('unbekannt'), unknown);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('alert')).toContainText('Diesen Registrierungscode gibt es nicht');
});

test('asking for the activation e-mail again sends a new link and voids the old one', async ({ page }) => {
  const email = uniqueEmail('nochmals');
  const code = await createRegistrationCode('demo');
  await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
  await fillRegistration(page, email, code);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('status')).toContainText(email);
  const first = await linkFromLatestMail(email, '/verification-complete');

  await page.goto(
    `${urls.portal}/resend-account-activation-email?subdomain=demo&email=${encodeURIComponent(email)}`,
  );
  await page.getByRole('button', { name: 'Aktivierungs-E-Mail senden' }).click();
  await expect(page.getByRole('status')).toContainText('Falls ein Konto mit dieser Adresse');
  await expect
    .poll(async () => (await linkFromLatestMail(email, '/verification-complete')).link.href)
    .not.toBe(first.link.href);

  await page.goto(first.link.href);
  await expect(page.getByText('Dieser Aktivierungslink ist ungültig oder abgelaufen')).toBeVisible();
  const second = await linkFromLatestMail(email, '/verification-complete');
  await page.goto(second.link.href);
  await expect(page.getByRole('status')).toContainText('Ihr Konto ist aktiviert');
});
