import {
  axeViolations,
  focusIndicator,
  overflowProblems,
  setTextSize,
  tab,
  tabTo,
} from './support/accessibility';
import { createInvitation, createRegistrationCode } from './support/admin';
import { renderEveryMail } from './support/every-mail';
import { expectSignedIn, waitForHydration } from './support/flows';
import { linkFromLatestMail } from './support/mail';
import { demoTenants } from './support/tenants';
import { expect, type Locator, type Page, test } from './support/test';
import { urls } from './support/urls';
import { DEMO_USER, uniqueEmail } from './support/users';

// Issue 12, "Seen and operable": WCAG 2.2 AA on every screen of spec §2, in every language — axe,
// reflow at 320 px and 200 % text, the keyboard alone, and the sign-in above the fold on a phone.
// Issue 25, the gallery: every screen state the walks reach is also compared with its picture in
// e2e/gallery/ (README, "Tests": how to renew them after an intended change).

test.describe.configure({ mode: 'parallel' });

const LOCALES = ['de-CH', 'fr-CH', 'it-CH', 'en'] as const;
const PASSWORD = 'Balkon-Blume9!';
const DESKTOP = { width: 1280, height: 720 };
const PHONE = { width: 320, height: 568 };

/** One state of one screen: how to get there from anywhere (in the page's language). */
interface ScreenState {
  name: string;
  reach: (page: Page) => Promise<void>;
  /** Puts the page back (a dialog closed) after the checks. */
  leave?: (page: Page) => Promise<void>;
  /** The page's main state, reached from any page: the one every tenant's brand is checked in. */
  isMain?: boolean;
  /** What differs from run to run (an e-mail address, a code): masked in the gallery's picture. */
  varying?: (page: Page) => Locator[];
  /** A modal dialog is open: its picture is the view (a whole page would be laid out around it). */
  isModal?: boolean;
  /** What a tenant must reach on a 320 × 568 phone without scrolling. */
  aboveTheFold?: (page: Page) => Locator[];
}

const portal = (path: string) => `${urls.portal}${path}`;

/**
 * The gallery (issue 25): the page in the state as it is now, whole, against its picture
 * e2e/gallery/<folder>/<state>.png (the comparison's options are in playwright.config.ts). Soft: a
 * walk goes on and shows every changed picture.
 */
async function expectInGallery(page: Page, folder: string, state: ScreenState) {
  // no hover left from a click; every font and image there
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(Array.from(document.images, (image) => image.decode().catch(() => undefined)));
  });
  // '/register with validation errors' → register-with-validation-errors.png
  const file = `${state.name
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()}.png`;
  await expect.soft(page).toHaveScreenshot([folder, file], {
    fullPage: !state.isModal,
    mask: state.varying?.(page) ?? [],
  });
}

/** Loads a page and waits until React has hydrated it (no waiting for the network to go quiet). */
async function open(page: Page, path: string) {
  await page.goto(portal(path));
  await waitForHydration(page);
}

/** Submits the page's form as it is (empty: every field's message shows). */
async function submitEmpty(page: Page) {
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
}

/** A registration through the form, to the success message; gives the e-mail registered. */
async function register(page: Page, code: string): Promise<string> {
  const email = uniqueEmail('a11y');
  await open(page, `/register?subdomain=demo&registrationcode=${code}`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="new-password"]').fill(PASSWORD);
  await page.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
  await page.locator('input[name="terms"]').check();
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('.mantine-Alert-root[role="status"]')).toContainText(email);
  return email;
}

/** Starts what takes a while (an e-mail to arrive) at once; its result is awaited where it is needed. */
function early<T>(start: () => Promise<T>): Promise<T> {
  const promise = start();
  promise.catch(() => {}); // reported where it is awaited
  return promise;
}

/**
 * Every state of every screen in a language, in the order a walk reaches them; with `onlyMain`, each
 * page's main state alone, in a tenant's brand (/verification-complete's is its invalid link: its
 * success needs a registration, and shows no more of the brand).
 */
function screenStates(language: string, { subdomain = 'demo', onlyMain = false } = {}): ScreenState[] {
  const query = `subdomain=${subdomain}`;
  const invited = uniqueEmail('a11y-invited');
  const invitationMail = onlyMain
    ? undefined
    : early(async () => {
        await createInvitation(invited, subdomain, language.slice(0, 2));
        return linkFromLatestMail(invited, '/register');
      });
  let verificationMail: ReturnType<typeof linkFromLatestMail> = Promise.reject(
    new Error('not registered yet'),
  );
  verificationMail.catch(() => {});
  let registered = '';
  let invitationCode = '';
  const codeField = (page: Page) => [page.locator('input[name="registrationcode"]')];
  // the sign-in and the way to a new password, also after a wrong password
  const signInControls = (page: Page) => [
    page.locator('input[name="username"]'),
    page.locator('input[name="password"]'),
    page.locator('form button[type="submit"]'),
    page.locator('a[href^="/password-reset-init"]'),
  ];
  const states: ScreenState[] = [
    { name: '/login', reach: (page) => open(page, `/login?${query}`), aboveTheFold: signInControls },
    { name: '/login with validation errors', reach: submitEmpty },
    {
      name: '/login after a wrong password',
      isMain: true,
      reach: async (page) => {
        await open(page, `/login?${query}&error=invalid_username_password`);
        await expect(page.getByRole('alert')).toBeFocused();
      },
      aboveTheFold: signInControls,
    },
    {
      name: '/register with a code',
      isMain: true,
      reach: async (page) =>
        open(page, `/register?${query}&registrationcode=${await createRegistrationCode(subdomain)}`),
      varying: codeField,
    },
    { name: '/register with validation errors', reach: submitEmpty, varying: codeField },
    {
      name: '/register with the terms dialog open',
      reach: async (page) => {
        await page.locator('form button.mantine-Anchor-root').click();
        await expect(page.getByRole('dialog')).toBeVisible();
      },
      leave: async (page) => {
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      },
      // on the phone the dialog covers the whole view, the code too
      isModal: true,
    },
    {
      name: '/register registered',
      reach: async (page) => {
        registered = await register(page, await createRegistrationCode());
        // the activation e-mail is fetched later, once it has surely arrived
        verificationMail = early(() => linkFromLatestMail(registered, '/verification-complete'));
      },
      varying: (page) => [page.getByText(registered)],
    },
    {
      name: '/register with an error from the provider',
      reach: (page) => open(page, `/register?${query}&error=registration_error`),
    },
    {
      name: '/password-reset-init',
      isMain: true,
      reach: (page) => open(page, `/password-reset-init?${query}`),
    },
    { name: '/password-reset-init with validation errors', reach: submitEmpty },
    {
      name: '/password-reset-init with an error from the provider',
      reach: async (page) => {
        await open(page, `/password-reset-init?${query}&error=default`);
        await expect(page.getByRole('alert')).toBeVisible();
      },
    },
    {
      name: '/password-set',
      isMain: true,
      reach: (page) => open(page, `/password-set?${query}&requestId=r-1&exchangeid=x-1&rprq=p-1`),
    },
    { name: '/password-set with validation errors', reach: submitEmpty },
    {
      name: '/password-set with an invalid link',
      reach: async (page) => {
        await page.locator('input[name="new-password"]').fill(PASSWORD);
        await page.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
        await page.locator('form button[type="submit"]').click();
        await expect(page.getByRole('alert')).toBeVisible();
      },
    },
    {
      name: '/password-set with a parameter missing',
      reach: async (page) => {
        await open(page, `/password-set?${query}&requestId=r-1&rprq=p-1`);
        await expect(page.getByRole('alert')).toBeVisible();
      },
    },
    {
      name: '/password-set-success',
      isMain: true,
      reach: (page) => open(page, `/password-set-success?${query}`),
    },
    {
      name: '/resend-account-activation-email',
      isMain: true,
      reach: (page) => open(page, `/resend-account-activation-email?${query}&reason=email_not_verified`),
    },
    { name: '/resend-account-activation-email with validation errors', reach: submitEmpty },
    {
      name: '/register as an invitation',
      reach: async (page) => {
        const { link } = await invitationMail!;
        invitationCode = link.searchParams.get('registrationcode') ?? '';
        await open(page, `${link.pathname}${link.search}`);
      },
      varying: (page) => [page.getByText(invited), page.getByText(invitationCode)],
    },
    {
      name: '/verification-complete activated',
      reach: async (page) => {
        await page.goto((await verificationMail).link.href);
        await waitForHydration(page);
        await expect(page.getByRole('status')).toBeFocused();
      },
    },
    {
      name: '/verification-complete with an invalid link',
      isMain: true,
      reach: async (page) => {
        await open(page, `/verification-complete?${query}&email=niemand%40example.ch&verificationid=x`);
        await expect(page.getByRole('alert')).toBeVisible();
      },
    },
    { name: 'the 404 page', isMain: true, reach: (page) => open(page, `/no-such-page?${query}`) },
  ];
  return onlyMain ? states.filter((state) => state.isMain) : states;
}

/** The states pictured at the desktop too (in French): the frame all pages share, card, background, logo. */
const AT_THE_DESKTOP = new Set(['/login after a wrong password', '/register with a code']);

test.describe('every screen', () => {
  for (const locale of LOCALES) {
    test(`every screen in ${locale}: no axe violations, nothing cut off at 320 px or 200 % text, the sign-in without scrolling on a phone, as in the gallery`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const context = await browser.newContext({ locale, viewport: DESKTOP });
      const page = await context.newPage();
      const violations: string[] = [];
      const overflows: string[] = [];
      for (const state of screenStates(locale)) {
        await test.step(state.name, async () => {
          await state.reach(page);
          violations.push(...(await axeViolations(page)).map((line) => `${state.name}: ${line}`));
          if (locale === 'fr-CH' && AT_THE_DESKTOP.has(state.name)) {
            await expectInGallery(page, 'fr-CH-desktop', state);
          }
          // 320 px (1.4.10), and 200 % text on top of it (1.4.4): what fits there fits on any wider screen
          await page.setViewportSize(PHONE);
          if (state.aboveTheFold) {
            expect.soft(await page.evaluate(() => window.scrollY), `${state.name} scrolled`).toBe(0);
          }
          for (const control of state.aboveTheFold?.(page) ?? []) {
            const box = (await control.boundingBox())!;
            expect.soft(box.y, `${control} on ${state.name}`).toBeGreaterThanOrEqual(0);
            expect.soft(box.y + box.height, `${control} on ${state.name}`).toBeLessThanOrEqual(PHONE.height);
          }
          const cutOff = async (label: string) =>
            overflows.push(
              ...(await overflowProblems(page)).map((line) => `${state.name} at ${label}: ${line}`),
            );
          await cutOff('320 px');
          await expectInGallery(page, locale, state);
          await setTextSize(page, 200);
          await cutOff('320 px, 200 % text');
          await setTextSize(page, 100);
          await page.setViewportSize(DESKTOP);
          await state.leave?.(page);
        });
      }
      await context.close();
      expect.soft(violations, 'axe violations').toEqual([]);
      expect.soft(overflows, 'cut off or scrolling sideways').toEqual([]);
    });
  }

  // the demo brand is walked above, in every language
  for (const { subdomain } of demoTenants.filter((tenant) => tenant.subdomain !== 'demo')) {
    test(`every page in ${subdomain}’s brand: no axe violations, nothing cut off at 320 px, as in the gallery`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ locale: 'fr-CH', viewport: PHONE });
      const page = await context.newPage();
      const problems: string[] = [];
      for (const state of screenStates('fr-CH', { subdomain, onlyMain: true })) {
        await test.step(state.name, async () => {
          await state.reach(page);
          problems.push(...(await axeViolations(page)).map((line) => `${state.name}: ${line}`));
          problems.push(...(await overflowProblems(page)).map((line) => `${state.name}: ${line}`));
          await expectInGallery(page, `fr-CH-${subdomain}`, state);
        });
      }
      await context.close();
      expect(problems, 'axe violations, cut off or scrolling sideways').toEqual([]);
    });
  }
});

test('every e-mail of both apps, in every language and brand: no axe violations', async ({ page }) => {
  const violations: string[] = [];
  for (const mail of await renderEveryMail(urls.portal)) {
    await page.setContent(mail.html);
    violations.push(...(await axeViolations(page)).map((line) => `${mail.name}: ${line}`));
  }
  expect(violations, 'axe violations').toEqual([]);
});

test('the page as the server sends it says "error" in its title while it shows one, and the tenant, in every language', async ({
  request,
}) => {
  for (const [language, title, errorTitle] of [
    ['de-CH', 'Anmelden', 'Fehler: Anmelden'],
    ['fr-CH', 'Connexion', 'Erreur\u00a0: Connexion'],
    ['it-CH', 'Accesso', 'Errore: Accesso'],
    ['en', 'Sign in', 'Error: Sign in'],
  ]) {
    const headers = { 'accept-language': language! };
    const plain = await (await request.get(portal('/login?subdomain=demo'), { headers })).text();
    expect(plain).toContain(`<title>${title} – Demo Immobilien AG</title>`);
    const failed = await (
      await request.get(portal('/login?subdomain=demo&error=invalid_username_password'), { headers })
    ).text();
    expect(failed).toContain(`<title>${errorTitle} – Demo Immobilien AG</title>`);
  }
});

test('signs in by keyboard alone, the focus visible at every stop, also on an invalid field and the show-password button', async ({
  page,
}) => {
  // From the customer's portal, as a tenant starts: its sign-in button by keyboard too.
  await page.goto(urls.propertyPortal);
  const signIn = page.getByTestId('sign-in');
  for (
    let stop = 0;
    stop < 10 && !(await signIn.evaluate((element) => element === document.activeElement));
    stop += 1
  ) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  // The submit button is enabled in the server's HTML already, so it is no sign of the script; the
  // walk below needs the script (the show-password button works only with it).
  await waitForHydration(page);

  const email = page.locator('input[name="username"]');
  const password = page.locator('input[name="password"]');
  const toggle = page.getByRole('button', { name: 'Show password' });
  const submit = page.locator('form button[type="submit"]');

  await tabTo(page, email);
  await tab(page);
  await expect(password).toBeFocused();
  await tab(page);
  await expect(toggle).toBeFocused();
  // a 44 × 44 px target (WCAG 2.5.8 asks for 24)
  const box = (await toggle.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'password');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');

  // sent empty: the error summary takes the focus; its first link leads to the first invalid field,
  // which shows its focus next to its red border
  await tab(page);
  await expect(submit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('.error-summary')).toBeFocused();
  expect(await focusIndicator(page), 'the focus on the error summary').not.toBeNull();
  await tab(page);
  await page.keyboard.press('Enter');
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveTitle(/^Error: /);
  expect(await focusIndicator(page), 'the focus on the invalid e-mail field').not.toBeNull();
  await page.keyboard.type(DEMO_USER.email);
  await tab(page);
  await expect(password).toBeFocused();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.type(DEMO_USER.password);
  // back and forth: Shift+Tab to the e-mail, Tab to the password again
  await tab(page, 'Shift+Tab');
  await expect(email).toBeFocused();
  await tab(page);
  await page.keyboard.press('Enter');
  await expectSignedIn(page, DEMO_USER.email);
});

test('asks for a password reset by keyboard alone, the focus visible at every stop', async ({ page }) => {
  await open(page, '/login?subdomain=demo');
  const forgot = page.locator('a[href^="/password-reset-init"]');
  await tabTo(page, forgot);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/password-reset-init');
  // The link is followed inside the page, and the sign-in form stays on screen until the new page's
  // chunk is there: its submit button would pass for the new one. The new page is there when its
  // heading has the focus the link had (WCAG 2.4.3; Tab goes on from it).
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  const submit = page.locator('form button[type="submit"]');
  await expect(submit).toBeEnabled();

  const email = page.locator('input[name="email"]');
  await tabTo(page, submit);
  await page.keyboard.press('Space');
  await expect(page.locator('.error-summary')).toBeFocused();
  await tab(page);
  await page.keyboard.press('Enter');
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  expect(await focusIndicator(page), 'the focus on the invalid e-mail field').not.toBeNull();
  await page.keyboard.type('niemand-hier@example.ch');
  await tab(page);
  await expect(submit).toBeFocused();
  await tab(page, 'Shift+Tab');
  await expect(email).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('.mantine-Alert-root[role="status"]')).toBeFocused();
});
