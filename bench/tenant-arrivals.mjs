// Every page a tenant meets, reached as tenants reach it (issue 31): /login and the pages linked
// from it with a live request id the provider gave the demo property portal's authorization
// request, /register from a paper letter (a fresh code, no request id), and the e-mailed activation
// and reset links as the mail catcher holds them. Each `next()` gives the address of one more
// arrival, so that no page is measured as a kept answer to a request the server saw before (the
// mailed links excepted: a tenant opens the one link they got, and opening it changes nothing).
// Each page names the fields a tenant fills before sending its form (`form`), for bench/form-usable.mjs.
import { randomUUID } from 'node:crypto';
import { createRegistrationCode, linkFromMail } from './browser-walk.mjs';
import { arrivalAtLogin } from './sign-in.mjs';

const DEMO_CLIENT_ID = 'property-portal-demo';
const PASSWORD = 'Bench-Balkon9!';

/**
 * @typedef {object} TenantPage
 * @property {string} name as the report names it
 * @property {() => Promise<string>} next the address of one more arrival
 * @property {Record<string, string | true>} [form] what a tenant types (true: ticks) before sending
 * @property {boolean} [hasTerms] whether the page's terms of use open from it
 */

/** The pages, by the names the report and the budgets give them. */
export const TENANT_PAGE_NAMES = [
  '/login',
  '/register from a letter',
  '/password-reset-init',
  '/resend-account-activation-email',
  '/verification-complete (mailed link)',
  '/password-set (mailed link)',
  '/password-set-success',
];
/** The pages whose form a tenant sends, and the one whose terms of use open from it. */
export const PAGES_WITH_FORM = TENANT_PAGE_NAMES.filter((name) => name !== '/password-set-success');
export const PAGE_WITH_TERMS = '/register from a letter';

/** @param {string} portal @param {string} call @param {Record<string, unknown>} body */
async function callPortal(portal, call, body) {
  const answer = await fetch(`${portal}/api/cidaas-webhook/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portal },
    body: JSON.stringify(body),
  });
  if (answer.status !== 200) throw new Error(`${call} answered ${answer.status}: ${await answer.text()}`);
}

/**
 * A new account, registered through the portal with a letter's code: its activation link, and —
 * once activated — the reset link it is e-mailed.
 * @param {import('./browser-walk.mjs').StackUrls} urls
 */
async function mailedLinks(urls) {
  const email = `bench-${randomUUID().slice(0, 8)}@example.ch`;
  await callPortal(urls.portal, 'register-user', {
    email,
    password: PASSWORD,
    registrationcode: await createRegistrationCode(urls),
    clientid: DEMO_CLIENT_ID,
  });
  const activation = await linkFromMail(urls, email, '/verification-complete');
  const { searchParams } = new URL(activation);
  await callPortal(urls.portal, 'activate-user-account', {
    email: searchParams.get('email'),
    verificationid: searchParams.get('verificationid'),
  });
  await callPortal(urls.portal, 'password-reset-initiate', {
    email,
    subdomain: 'demo',
    requestId: '',
    processingType: 'LINK',
    resetMedium: 'email',
  });
  const reset = await linkFromMail(urls, email, '/password-set');
  return { activation, reset };
}

/**
 * A page linked from /login, with the arrival's request id and tenant, as its link carries them.
 * @param {string} login @param {string} pathname @param {Record<string, string>} [extra]
 */
function linkedFrom(login, pathname, extra = {}) {
  const url = new URL(login);
  url.pathname = pathname;
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  return url.href;
}

/**
 * The pages, each with its arrivals, at the portal's own address (`localhost`, as its links give it):
 * a page's calls to its server are refused from any other origin (http/portal-request-guard.ts), so
 * on 127.0.0.1 the activation page showed the refusal's error instead of its outcome. The floor
 * pages are served at `localhost` too (page-speed.mjs), so both pay the same for the name.
 * @param {import('./browser-walk.mjs').StackUrls} urls
 * @returns {Promise<TenantPage[]>}
 */
export async function tenantPages(urls) {
  const login = () => arrivalAtLogin(urls);
  const { activation, reset } = await mailedLinks(urls);
  const nobody = () => `nobody-${randomUUID().slice(0, 8)}@example.ch`;
  return [
    {
      name: '/login',
      next: login,
      form: { username: nobody(), password: 'Wrong-Passw0rd!' },
    },
    {
      name: '/register from a letter',
      next: async () =>
        `${urls.portal}/register?subdomain=demo&registrationcode=${await createRegistrationCode(urls)}`,
      form: {
        email: nobody(),
        'new-password': PASSWORD,
        'new-password-confirmation': PASSWORD,
        terms: true,
      },
      hasTerms: true,
    },
    {
      name: '/password-reset-init',
      next: async () => linkedFrom(await login(), '/password-reset-init'),
      form: { email: nobody() },
    },
    {
      name: '/resend-account-activation-email',
      next: async () =>
        linkedFrom(await login(), '/resend-account-activation-email', { reason: 'email_not_verified' }),
      form: { email: nobody() },
    },
    {
      name: '/verification-complete (mailed link)',
      next: async () => activation,
      form: {},
    },
    {
      name: '/password-set (mailed link)',
      next: async () => reset,
      form: { 'new-password': PASSWORD, 'new-password-confirmation': PASSWORD },
    },
    {
      name: '/password-set-success',
      next: async () => `${urls.portal}/password-set-success?subdomain=demo`,
    },
  ];
}
