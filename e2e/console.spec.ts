import { randomUUID } from 'node:crypto';
import {
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutScript,
  overflowProblems,
  tabTo,
} from './support/accessibility';
import {
  type ConsoleManager,
  codeRows,
  consoleSession,
  consoleTexts,
  exportRecords,
  FRENCH_MANAGER,
  filled,
  GERMAN_MANAGER,
  nudged,
  readLetters,
  registerTexts,
  rgb,
  unitsCsv,
} from './support/console';
import { linkFromLatestMail } from './support/mail';
import { expect, type Page, test } from './support/test';
import { urls } from './support/urls';
import { uniqueEmail } from './support/users';

// Issue 30's walk through the console (/console), as a property manager's office does it, in German
// and in French: sign in at the provider, import a building's units, print the letters, watch a
// tenant register with one of them and activate, re-send an invitation, change and publish the brand,
// and find none of it as the other tenant's manager. Then, once, every page with axe, at 320 px and
// the forms without JavaScript.

const PASSWORD = 'Balkon-Blume9!';
const UNITS = 20;

/** The page a post led to says what it did. */
async function expectDone(page: Page, text: string) {
  await expect(page.locator('.flash[role="status"]')).toHaveText(text);
}

/**
 * On the invitations page: an invitation made for `invited`, then sent again; the links of the first
 * e-mail and of the second (a new code), once the second has arrived.
 */
async function inviteAndSendAgain(page: Page, texts: ReturnType<typeof consoleTexts>, invited: string) {
  await page.getByRole('textbox', { name: texts.invitations.email }).fill(invited);
  await page.getByRole('button', { name: texts.invitations.submit }).click();
  await expectDone(page, texts.done.invitation_created);
  const first = await linkFromLatestMail(invited, '/register');
  await page
    .getByRole('button', {
      name: `${texts.invitations.resend} ${filled(texts.invitations.to, { email: invited })}`,
    })
    .click();
  await expectDone(page, texts.done.invitation_resent);
  let second = first.link;
  await expect
    .poll(async () => {
      second = (await linkFromLatestMail(invited, '/register')).link;
      return second.href;
    })
    .not.toBe(first.link.href);
  return { first: first.link, second };
}

/** The file input's way: a CSV file chosen and sent with the building's name. */
async function importUnits(page: Page, texts: ReturnType<typeof consoleTexts>, building: string) {
  const { csv, units } = unitsCsv(UNITS);
  await page.getByRole('textbox', { name: texts.batchNew.building }).fill(building);
  await page
    .getByLabel(texts.batchNew.unitsFile)
    .setInputFiles({ name: 'units.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: texts.batchNew.submit }).click();
  await page.waitForURL(/\/batches\/[0-9a-f-]{36}$/);
  await expectDone(page, filled(texts.doneCount.batch_created, { count: UNITS }));
  return units;
}

/** Polls the batch page (reloading it) until the unit's code shows `state`. */
async function expectUnitState(page: Page, unit: string, state: string) {
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await codeRows(page)).find((row) => row.unit === unit)?.state;
      },
      { timeout: 15_000, message: `unit ${unit} shows "${state}"` },
    )
    .toBe(state);
}

/**
 * The tenant's /login as another server instance on the same database renders it: the one without a
 * provider that global-setup starts beside the stack's (the page still carries the tenant's theme).
 * In the cluster run there is none; nginx spreads requests over the three instances round robin, so
 * six in a row there each see it.
 */
async function loginPageOfOtherInstances(tenant: string): Promise<string[]> {
  const away = process.env.E2E_PROVIDER_AWAY_URL;
  const addresses = away ? [away] : Array.from({ length: 6 }, () => urls.portal);
  const pages = [];
  for (const address of addresses) {
    const response = await fetch(`${address}/login?subdomain=${tenant}`);
    pages.push((await response.text()).toLowerCase());
  }
  return pages;
}

async function expectColourOnOtherInstances(tenant: string, colour: string) {
  await expect
    .poll(async () => (await loginPageOfOtherInstances(tenant)).every((html) => html.includes(colour)), {
      timeout: 10_000,
      message: `the other instances' /login?subdomain=${tenant} shows ${colour}`,
    })
    .toBe(true);
}

/**
 * On the brand page: the colour chosen, which the page saves as a draft at once (its script posts the
 * form on a change), the preview's /login in it; then published.
 */
async function publishColour(page: Page, texts: ReturnType<typeof consoleTexts>, colour: string) {
  await page.locator('input[type="color"][name="primaryColor"]').fill(colour);
  await expect(page.locator('.live-status')).toHaveText(texts.brand.previewUpdated);
  const preview = page.frameLocator('iframe.preview-frame').first();
  await page.locator('iframe.preview-frame').first().scrollIntoViewIfNeeded();
  await expect(preview.locator('form button[type="submit"]')).toHaveCSS('background-color', rgb(colour));
  await page.getByRole('button', { name: texts.brand.publish, exact: true }).click();
  await expectDone(page, texts.done.brand_published);
}

/**
 * What does not fit at this width (support/accessibility.ts). A console table scrolls sideways in a
 * box of its own (apps/console's DataTable; WCAG 1.4.10 exempts data tables), whose cells run out of
 * the window by design: the page must not scroll sideways with the tables in it, and everything else
 * is checked with the tables out of the way.
 */
async function notFitting(page: Page): Promise<string[]> {
  const sideways = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth > root.clientWidth ? [`the page scrolls sideways: ${root.scrollWidth} px`] : [];
  });
  const toggleTables = (display: string) =>
    page.locator('.table-scroll').evaluateAll((boxes, value) => {
      for (const box of boxes as HTMLElement[]) box.style.display = value;
    }, display);
  await toggleTables('none');
  const rest = await overflowProblems(page);
  await toggleTables('');
  return [...sideways, ...rest];
}

for (const [manager, other] of [
  [GERMAN_MANAGER, FRENCH_MANAGER],
  [FRENCH_MANAGER, GERMAN_MANAGER],
] as [ConsoleManager, ConsoleManager][]) {
  test(`the office's walk in ${manager.language}: letters, a registration, an invitation, the brand — and nothing for ${other.tenant}'s manager`, async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const texts = consoleTexts(manager.language);
    const tenantPath = `/console/t/${manager.tenant}`;

    // 1. Signed in through the provider's hosted login page.
    const { context, page } = await consoleSession(browser, manager);
    await page.getByRole('link', { name: manager.tenantName }).first().click();
    await page.waitForURL(`${urls.portal}${tenantPath}`);

    // 2. A building's 20 flats from a CSV file: each has an unused code.
    await page.getByRole('link', { name: texts.tenant.newBatch }).click();
    const building = `Seestrasse ${randomUUID().slice(0, 6)}, 8002 Zürich`;
    const units = await importUnits(page, texts, building);
    const batchUrl = page.url();
    const rows = await codeRows(page);
    expect(rows.map((row) => row.unit)).toEqual(units);
    expect(rows.every((row) => row.state === texts.codeState.unused)).toBe(true);
    await expect(page.locator('.figure', { hasText: texts.figures.unused }).locator('dd')).toHaveText(
      String(UNITS),
    );

    // 3. The letters, as the link gives them to the browser (shown there, not saved), read back:
    // each code on a page of its own, whose QR code reads as the code's register link in the
    // export. A browser keeps the file it shows to itself, so the file is read on its way to the
    // browser (the server makes it once).
    let pdf: Buffer | undefined;
    await page.route('**/letters.pdf', async (route) => {
      const response = await route.fetch();
      pdf = await response.body();
      await route.fulfill({ response, body: pdf });
    });
    const [letters] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/letters.pdf')),
      page.getByRole('link', { name: texts.batch.letters }).click(),
    ]);
    expect(letters.status()).toBe(200);
    expect(letters.headers()['content-type']).toBe('application/pdf');
    expect(letters.headers()['content-disposition']).toMatch(/^inline/);
    await page.unroute('**/letters.pdf');
    const pages = await readLetters(pdf!);
    const exported = await page.request.get(`${batchUrl}/export.csv`);
    expect(exported.headers()['content-type']).toMatch(/^text\/csv/);
    const registerUrls = new Map(
      exportRecords(await exported.text()).map((record) => [record.code!, record.register_url!]),
    );
    expect(pages).toHaveLength(UNITS);
    for (const [index, { code }] of rows.entries()) {
      const letter = pages.find(({ text }) => text.includes(code));
      expect(letter, `a letter with the code of ${units[index]}`).toBeDefined();
      expect(letter!.qrCode, `the QR code of ${units[index]}'s letter`).toBe(registerUrls.get(code));
    }
    expect(registerUrls.get(rows[0]!.code)?.startsWith(`${urls.portal}/register?`)).toBe(true);
    await page.goto(batchUrl);

    // 4. A tenant registers with the first letter's link at home; the office sees the flat registered,
    // and activated once the activation e-mail's link is followed.
    const tenant = await browser.newContext({ locale: manager.locale });
    const home = await tenant.newPage();
    const email = uniqueEmail(`console-${manager.language}`);
    await home.goto(registerUrls.get(rows[0]!.code)!);
    await expect(home.locator('input[name="registrationcode"]')).toHaveValue(rows[0]!.code);
    await home.locator('input[name="email"]').fill(email);
    await home.locator('input[name="new-password"]').fill(PASSWORD);
    await home.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
    await home.getByRole('checkbox').check();
    await home.locator('form button[type="submit"]').click();
    await expect(home.getByRole('status')).toContainText(email);
    await expectUnitState(page, units[0]!, texts.codeState.used);
    await expect(page.getByText(filled(texts.batch.registeredWith, { email }))).toBeVisible();
    const { link: activation } = await linkFromLatestMail(email, '/verification-complete');
    await home.goto(activation.href);
    await expect(home.getByRole('status')).toBeVisible();
    await expectUnitState(page, units[0]!, texts.codeState.activated);

    // 5. An invitation sent again: the first e-mail's link is withdrawn, the second one registers.
    await page.goto(`${urls.portal}${tenantPath}/invitations`);
    const { first, second } = await inviteAndSendAgain(
      page,
      texts,
      uniqueEmail(`console-invited-${manager.language}`),
    );
    const register = registerTexts(manager.language);
    const withdrawn = register.error.invitation_withdrawn;
    await home.goto(first.href);
    await expect(home.getByRole('alert')).toContainText(withdrawn);
    await home.locator('input[name="new-password"]').fill(PASSWORD);
    await home.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
    await home.getByRole('checkbox').check();
    const [refused] = await Promise.all([
      home.waitForResponse((response) => response.request().method() === 'POST'),
      home.getByRole('button', { name: register.submit, exact: true }).click(),
    ]);
    // Refused, not failed: nobody is registered with the withdrawn code.
    expect(refused.status()).toBeGreaterThanOrEqual(400);
    expect(refused.status()).toBeLessThan(500);
    await expect(home.getByRole('alert')).toContainText(withdrawn);
    await expect(home.getByRole('status')).toHaveCount(0);
    await home.goto(second.href);
    await expect(home.locator('input[name="new-password"]')).toBeVisible();
    await expect(home.getByText(second.searchParams.get('registrationcode')!)).toBeVisible();
    await expect(home.getByRole('alert')).toHaveCount(0);
    await tenant.close();

    // 6. The brand: a new colour saved as a draft, seen in the preview, published, and on the tenant's
    // /login of another instance within seconds, without a restart. Then the colour as it was.
    await page.goto(`${urls.portal}${tenantPath}/brand`);
    const original = (
      await page.locator('input[type="color"][name="primaryColor"]').inputValue()
    ).toLowerCase();
    const colour = nudged(original);
    for (const html of await loginPageOfOtherInstances(manager.tenant)) expect(html).toContain(original);
    let published = false;
    try {
      await publishColour(page, texts, colour);
      published = true;
      await expectColourOnOtherInstances(manager.tenant, colour);
    } finally {
      if (published) {
        await page.goto(`${urls.portal}${tenantPath}/brand`);
        await publishColour(page, texts, original);
        await expectColourOnOtherInstances(manager.tenant, original);
      }
    }

    // 7. The other tenant's manager sees none of it, and the admin API refuses that session too.
    const { context: otherContext, page: stranger } = await consoleSession(browser, other);
    const otherTexts = consoleTexts(other.language);
    await expect(stranger.locator(`a[href="${tenantPath}"]`)).toHaveCount(0);
    for (const path of [tenantPath, new URL(batchUrl).pathname]) {
      const response = await stranger.goto(`${urls.portal}${path}`);
      expect(response?.status(), path).toBe(403);
      await expect(stranger.getByRole('heading', { level: 1 })).toHaveText(otherTexts.forbidden.title);
      await expect(stranger.getByText(building)).toHaveCount(0);
    }
    const api = await stranger.request.get(`${urls.portal}/api/admin/batches?tenant=${manager.tenant}`);
    expect(api.status()).toBe(403);
    await otherContext.close();
    await context.close();
  });
}

test('every console page: no axe violations and no sideways scrolling at 320 px; a batch import and an invitation sent again without JavaScript', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const manager = GERMAN_MANAGER;
  const texts = consoleTexts(manager.language);
  const phone = { width: 320, height: 640 };
  const tenantPath = `${urls.portal}/console/t/${manager.tenant}`;
  const problems: string[] = [];
  const visited: string[] = [];
  const noteOverflow = async (page: Page, name: string) =>
    problems.push(...(await notFitting(page)).map((line) => `${name}: ${line}`));
  /** axe on the page as the server sent it, and what does not fit at 320 px. */
  const check = async (page: Page, name: string) => {
    visited.push(page.url());
    await expectNoAxeViolationsWithoutScript(page, `${name} (no JavaScript)`);
    await noteOverflow(page, `${name} (no JavaScript)`);
  };

  const { context, page } = await consoleSession(browser, manager, {
    javaScriptEnabled: false,
    viewport: phone,
  });
  await check(page, 'home');
  await page.goto(tenantPath);
  await check(page, 'tenant');
  await page.getByRole('link', { name: texts.tenant.newBatch }).click();
  await check(page, 'new batch');
  await importUnits(page, texts, `Bahnhofweg ${randomUUID().slice(0, 6)}, 3011 Bern`);
  expect(await codeRows(page)).toHaveLength(UNITS);
  await check(page, 'batch');

  await page.goto(`${tenantPath}/invitations`);
  await inviteAndSendAgain(page, texts, uniqueEmail('console-nojs'));
  await check(page, 'invitations');

  for (const [name, path] of [
    ['brand', `${tenantPath}/brand`],
    ['audit', `${urls.portal}/console/audit?tenant=${manager.tenant}`],
    ['forbidden', `${urls.portal}/console/t/${FRENCH_MANAGER.tenant}`],
  ] as const) {
    await page.goto(path);
    await check(page, name);
  }
  // The same session in a window that runs scripts: the sign-in is not what this test is about.
  const signedIn = await context.storageState();
  await context.close();

  // The same pages as the script makes them.
  const scripted = await browser.newContext({
    locale: manager.locale,
    viewport: phone,
    storageState: signedIn,
  });
  const scriptedPage = await scripted.newPage();
  for (const url of visited) {
    await scriptedPage.goto(url);
    await expect(scriptedPage.locator('html[data-hydrated]')).toHaveCount(1);
    const name = new URL(url).pathname;
    await expectNoAxeViolations(scriptedPage, name);
    await noteOverflow(scriptedPage, name);
  }
  expect(problems, 'cut off or scrolling sideways at 320 px').toEqual([]);

  // The keyboard alone, on a desktop's screen: a code picked and revoked, the focus visible at every stop.
  await scriptedPage.setViewportSize({ width: 1280, height: 720 });
  const batchUrl = visited.find((url) => /\/batches\/[0-9a-f-]{36}$/.test(new URL(url).pathname));
  await scriptedPage.goto(batchUrl!);
  await expect(scriptedPage.locator('html[data-hydrated]')).toHaveCount(1);
  const [picked] = await codeRows(scriptedPage);
  const box = scriptedPage.getByRole('checkbox', {
    name: filled(texts.batch.selectCode, { unit: picked!.unit }),
  });
  await tabTo(scriptedPage, box, 'Tab', 40);
  await scriptedPage.keyboard.press('Space');
  await expect(box).toBeChecked();
  await tabTo(
    scriptedPage,
    scriptedPage.getByRole('button', { name: texts.batch.revokeSelected }),
    'Tab',
    40,
  );
  scriptedPage.once('dialog', (dialog) => void dialog.accept());
  await scriptedPage.keyboard.press('Enter');
  await expectDone(scriptedPage, filled(texts.doneCount.codes_revoked, { count: 1 }));
  expect((await codeRows(scriptedPage)).find((row) => row.unit === picked!.unit)?.state).toBe(
    texts.codeState.revoked,
  );
  await scripted.close();
});
