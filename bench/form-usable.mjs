// When a tenant on an old phone can first send a page's form, against the same form without
// scripts — a hand-written form, which a browser sends the moment it shows it (issue 31). Chromium
// under applied throttling, Lighthouse's mobile figures applied by DevTools: slow 4G and a 4×
// slower CPU. From the start of the navigation, the fields are filled and the button pressed as
// soon as they show, again and again until the form is sent (a POST leaves the page: the server's
// form handling before the script runs, the script's call after); and on /register the time until
// the terms of use are open after their link is pressed as early as it shows (the page's own
// section before the script runs, its dialog after).
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './browser-walk.mjs';
import { serveFloor } from './page-speed.mjs';
import { machineReading, machineStateBetween } from './proc-cpu.mjs';

/** Lighthouse's mobile slow 4G as DevTools applies it, and its 4× CPU slowdown. */
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
/** How long one press may take to send the form before it is pressed again. */
const PRESS_WAIT_MS = 1000;
const GIVE_UP_MS = 60_000;

const TERMS_LINK = JSON.parse(
  readFileSync(new URL('../apps/portal/src/pages/Register/locales/de.json', import.meta.url), 'utf8'),
).termsOpen;

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A page in a fresh context, throttled, opened at `url`. The floor comes from a server of its own
 * over the same throttled network (page-speed.mjs, serveFloor): served by the browser's request
 * interception instead, it skipped the throttling and arrived 0.3 s before the page.
 * @param {import('playwright-core').Browser} browser @param {string} url
 */
async function openThrottled(browser, url) {
  const context = await browser.newContext({ locale: 'de-CH', viewport: { width: 360, height: 640 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const startedAt = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  return { page, startedAt, close: () => context.close() };
}

/**
 * @param {import('playwright-core').Page} page
 * @param {Record<string, string | true>} form
 * @returns {Promise<number>} when the first POST left, in ms since the epoch
 */
async function sendAsSoonAsPossible(page, form, startedAt) {
  let sentAt;
  page.on('request', (request) => {
    if (request.method() === 'POST') sentAt ??= Date.now();
  });
  const submit = page.locator('form button[type="submit"]');
  while (sentAt === undefined) {
    if (Date.now() - startedAt > GIVE_UP_MS) throw new Error(`${page.url()}: the form was never sent`);
    await submit.waitFor({ state: 'visible' });
    for (const [name, value] of Object.entries(form)) {
      const field = page.locator(`input[name="${name}"]`);
      if (value === true) await field.check();
      else await field.fill(value);
    }
    await submit.click({ noWaitAfter: true });
    const pressedAt = Date.now();
    while (sentAt === undefined && Date.now() - pressedAt < PRESS_WAIT_MS) {
      await page.waitForTimeout(20);
    }
  }
  return sentAt;
}

/** @param {import('playwright-core').Page} page @returns {Promise<number>} */
async function openTermsAsSoonAsPossible(page) {
  const link = page
    .locator('details.terms-inline > summary')
    .or(page.getByRole('button', { name: TERMS_LINK }));
  const terms = page.locator('details.terms-inline[open] section').first().or(page.getByRole('dialog'));
  await link.click();
  await terms.waitFor({ state: 'visible' });
  return Date.now();
}

/**
 * @typedef {object} FormUsable
 * @property {string} name
 * @property {number} rounds
 * @property {{ pageMs: number, floorMs: number, ratio: number }} [submit] first send, medians
 * @property {{ pageMs: number, floorMs: number, ratio: number }} [terms] terms open, medians
 * @property {ReturnType<typeof machineStateBetween>} machine while the form was measured
 */

/**
 * @param {import('./tenant-arrivals.mjs').TenantPage[]} pages those with a form are measured
 * @param {{ rounds?: number }} [options]
 * @returns {Promise<FormUsable[]>}
 */
// Seven rounds: a single round of a form varies by a tenth either way, and with five the median of
// /register was 1.02× in one run and 1.31× in the next on the idle machine (seven rounds: 1.00×).
export async function measureFormsUsable(pages, { rounds = 7 } = {}) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    /** @type {FormUsable[]} */
    const results = [];
    for (const tenantPage of pages.filter((candidate) => candidate.form)) {
      const times = { submit: { page: [], floor: [] }, terms: { page: [], floor: [] } };
      const floorServer = await serveFloor(tenantPage.next, new URL(await tenantPage.next()).origin);
      /** The address of one more arrival at the page, or at its floor. */
      const arrival = async (isFloor) => {
        if (!isFloor) return tenantPage.next();
        await floorServer.prepare();
        return floorServer.url;
      };
      const before = machineReading();
      // Taking turns, so that whatever else the machine does falls on both alike.
      try {
        for (let round = 0; round < rounds; round += 1) {
          for (const isFloor of [false, true]) {
            const side = isFloor ? 'floor' : 'page';
            const sent = await openThrottled(browser, await arrival(isFloor));
            try {
              const sentAt = await sendAsSoonAsPossible(sent.page, tenantPage.form ?? {}, sent.startedAt);
              times.submit[side].push(sentAt - sent.startedAt);
            } finally {
              await sent.close();
            }
            if (!tenantPage.hasTerms) continue;
            const opened = await openThrottled(browser, await arrival(isFloor));
            try {
              times.terms[side].push((await openTermsAsSoonAsPossible(opened.page)) - opened.startedAt);
            } finally {
              await opened.close();
            }
          }
        }
      } finally {
        await floorServer.close();
      }
      const figures = ({ page, floor }) => ({
        pageMs: median(page),
        floorMs: median(floor),
        ratio: median(page) / median(floor),
      });
      results.push({
        name: tenantPage.name,
        rounds,
        submit: figures(times.submit),
        ...(tenantPage.hasTerms ? { terms: figures(times.terms) } : {}),
        machine: machineStateBetween(before, machineReading()),
      });
    }
    return results;
  } finally {
    await browser.close();
  }
}
