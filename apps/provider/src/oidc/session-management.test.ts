import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPkce,
  exchangeCode,
  type ProviderHarness,
  RP_CLIENT_ID,
  RP_URL,
  signIn,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { DEMO_USER } from '../users/users';
import { BROWSER_STATE_COOKIE, computeSessionState } from './session-management';

const demo = { email: DEMO_USER.email, password: DEMO_USER.password };

type CheckSession = (message: string, origin: string) => Promise<{ answer: string; targetOrigin: string }>;

/** Runs the OP iframe's script as a browser would, with the given document.cookie. */
function loadIframe(script: string, getCookie: () => string): CheckSession {
  let listener: ((event: unknown) => void) | undefined;
  const window = {
    addEventListener: (type: string, handler: (event: unknown) => void) => {
      if (type === 'message') listener = handler;
    },
    crypto: globalThis.crypto,
  };
  const document = {
    get cookie() {
      return getCookie();
    },
  };
  runInNewContext(script, { window, document, TextEncoder, btoa });
  return (data, origin) =>
    new Promise((resolve) => {
      listener?.({
        data,
        origin,
        source: { postMessage: (answer: string, targetOrigin: string) => resolve({ answer, targetOrigin }) },
      });
    });
}

describe('Session Management 1.0', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider();
  });
  afterAll(() => harness.close());

  async function iframePage() {
    const response = await fetch(`${harness.baseUrl}/session/check_session`);
    const html = await response.text();
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    return { response, script };
  }

  it('names the check_session iframe in discovery', async () => {
    const discovery = (await (await fetch(`${harness.baseUrl}/.well-known/openid-configuration`)).json()) as {
      check_session_iframe: string;
      claim_types_supported: string[];
    };
    expect(discovery.check_session_iframe).toBe(`${harness.baseUrl}/session/check_session`);
    expect(discovery.claim_types_supported).toEqual(['normal']);
  });

  it('serves the iframe with a CSP that allows exactly its script and framing by the relying parties', async () => {
    const { response, script } = await iframePage();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy') ?? '';
    const hash = createHash('sha256').update(script).digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(new RegExp(`frame-ancestors [^;]*${RP_URL.replace(/\./g, '\\.')}`));
    expect(csp).not.toContain('unsafe-inline');
  });

  it('adds session_state to the code redirect, matching the browser-state cookie', async () => {
    const browser = new TestBrowser();
    const { callback } = await signIn(harness, browser, demo);
    const sessionState = callback.searchParams.get('session_state') ?? '';
    const browserState = browser.cookie(BROWSER_STATE_COOKIE);
    expect(browserState).toBeTruthy();
    const salt = sessionState.split('.')[1] ?? '';
    expect(sessionState).toBe(computeSessionState(RP_CLIENT_ID, RP_URL, browserState ?? '', salt));
  });

  it('sends a browser-state cookie that scripts can read, also on silent authorizations', async () => {
    const browser = new TestBrowser();
    await signIn(harness, browser, demo);
    const silent = await browser.fetch(
      `${harness.baseUrl}/authz-srv/authz?${new URLSearchParams({
        client_id: RP_CLIENT_ID,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: `${RP_URL}/callback`,
        code_challenge: createPkce().challenge,
        code_challenge_method: 'S256',
        prompt: 'none',
      })}`,
    );
    const cookie = silent.headers.getSetCookie().find((line) => line.startsWith(`${BROWSER_STATE_COOKIE}=`));
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie?.toLowerCase()).not.toContain('httponly');
    expect(new URL(silent.headers.get('location') ?? '').searchParams.get('session_state')).toBeTruthy();
  });

  it('lets the iframe tell "unchanged" until a sign-out in another tab, then "changed"', async () => {
    const browser = new TestBrowser();
    const { callback, code, pkce } = await signIn(harness, browser, demo);
    const sessionState = callback.searchParams.get('session_state') ?? '';
    const { script } = await iframePage();
    const check = loadIframe(script, () => browser.cookieHeader('/session/check_session'));

    expect(await check(`${RP_CLIENT_ID} ${sessionState}`, RP_URL)).toEqual({
      answer: 'unchanged',
      targetOrigin: RP_URL,
    });
    expect((await check(`${RP_CLIENT_ID} ${sessionState}`, 'http://other.test')).answer).toBe('changed');
    expect((await check('no-session-state', RP_URL)).answer).toBe('error');

    // RP-initiated logout, as another tab would do it.
    const tokens = await exchangeCode(harness, code, pkce);
    const page = await browser.fetch(
      `${harness.baseUrl}/session/end_session?${new URLSearchParams({ id_token_hint: tokens.id_token })}`,
    );
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
    );
    const confirm = await browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(confirm.status).toBe(303);
    expect(browser.cookie(BROWSER_STATE_COOKIE)).toBeUndefined();
    expect((await check(`${RP_CLIENT_ID} ${sessionState}`, RP_URL)).answer).toBe('changed');
  });
});
