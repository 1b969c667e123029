import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPkce,
  PORTAL_URL,
  type ProviderHarness,
  RP_URL,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { DEMO_USER } from '../users/users';

const BRANDED_CLIENT = {
  client_id: 'acme-portal',
  client_name: 'Acme Wohnen AG',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  redirect_uris: [`${RP_URL}/acme-callback`],
  logo_uri: 'https://acme.example.com/logo.svg',
  policy_uri: 'https://acme.example.com/privacy',
  tos_uri: 'https://acme.example.com/terms',
};

describe('routes the hosted login pages call', () => {
  let harness: ProviderHarness;
  let requestId: string;
  beforeAll(async () => {
    harness = await startProvider([BRANDED_CLIENT]);
    ({ requestId } = await startAuthorization(harness, new TestBrowser(), createPkce()));
  });
  afterAll(() => harness.close());

  function postJson(path: string, body: unknown) {
    return fetch(`${harness.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: PORTAL_URL },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  describe('POST /useractions-srv/userexistence/:requestId', () => {
    it('confirms a known e-mail, whatever its case', async () => {
      const response = await postJson(
        `/useractions-srv/userexistence/${requestId}?webfinger=email&rememberMe=false`,
        {
          email: ' DEMO@concierge.test',
          requestId,
        },
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, status: 200, data: { exist: true } });
      expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL_URL);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    });

    it('answers an unknown e-mail with 204 and no body, as cidaas documents', async () => {
      const response = await postJson(`/useractions-srv/userexistence/${requestId}`, {
        email: 'nobody@example.com',
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL_URL);
    });

    it('answers only for a live sign-in request: a made-up request id is 10001, known e-mail or not', async () => {
      for (const email of ['demo@concierge.test', 'nobody@example.com']) {
        const response = await postJson('/useractions-srv/userexistence/made-up-request-id', { email });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ success: false, error: { code: 10001 } });
      }
    });

    it('answers malformed JSON and a missing e-mail with a 400 envelope', async () => {
      for (const body of ['{"email":', { requestId }]) {
        const response = await postJson(`/useractions-srv/userexistence/${requestId}`, body);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({
          success: false,
          status: 400,
          error: { code: 10000, status: 400 },
        });
      }
    });

    it('takes JSON only', async () => {
      const response = await fetch(`${harness.baseUrl}/useractions-srv/userexistence/${requestId}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: DEMO_USER.email,
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ success: false, status: 415, error: { code: 10000 } });
    });

    it('allows the portal origin with its custom headers in a preflight, and no other origin', async () => {
      const preflight = (origin: string) =>
        fetch(`${harness.baseUrl}/useractions-srv/userexistence/${requestId}`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,requestid,acceptlanguage',
          },
        });
      const allowed = await preflight(PORTAL_URL);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(PORTAL_URL);
      expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('requestid');
      const other = await preflight('http://evil.test');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('GET /public-srv/public/:requestId', () => {
    it("describes the client of the request in cidaas's fields only", async () => {
      const response = await fetch(`${harness.baseUrl}/public-srv/public/${requestId}`);
      expect(response.status).toBe(200);
      // Unset URIs are left out; no client_id and no registration flags (provider-protocol.md).
      expect(await response.json()).toEqual({
        success: true,
        status: 200,
        data: {
          client_name: 'Demo Immobilien AG',
          login_providers: [],
          passwordless_enabled: false,
          captcha_site_key: '',
        },
      });
    });

    it('names the logo, privacy policy and terms when the client has them', async () => {
      const { requestId: branded } = await startAuthorization(harness, new TestBrowser(), createPkce(), {
        client_id: BRANDED_CLIENT.client_id,
        redirect_uri: BRANDED_CLIENT.redirect_uris[0] ?? '',
      });
      const response = await fetch(`${harness.baseUrl}/public-srv/public/${branded}`);
      expect(((await response.json()) as { data: unknown }).data).toEqual({
        client_name: 'Acme Wohnen AG',
        logo_uri: BRANDED_CLIENT.logo_uri,
        login_providers: [],
        policy_uri: BRANDED_CLIENT.policy_uri,
        tos_uri: BRANDED_CLIENT.tos_uri,
        passwordless_enabled: false,
        captcha_site_key: '',
      });
    });

    it('answers an unknown requestId with 400 and cidaas code 10001', async () => {
      const response = await fetch(`${harness.baseUrl}/public-srv/public/unknown-request`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        success: false,
        status: 400,
        error: {
          code: 10001,
          moreInfo: '',
          type: 'RequestIdException',
          status: 400,
          referenceNumber: expect.stringMatching(/^\d+-[0-9a-f]+$/),
          error: 'unknown or expired requestId',
        },
      });
    });
  });

  it('tells the tenant basics', async () => {
    const response = await fetch(`${harness.baseUrl}/public-srv/tenantinfo/basic`, {
      headers: { origin: PORTAL_URL },
    });
    expect(await response.json()).toEqual({
      success: true,
      status: 200,
      data: { tenant_name: harness.config.tenant.name, tenant_key: 'concierge', allowLoginWith: ['EMAIL'] },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL_URL);
  });

  it('reports health', async () => {
    const response = await fetch(`${harness.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
