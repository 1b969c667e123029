import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPkce,
  PORTAL_URL,
  type ProviderHarness,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { DEMO_USER } from '../users/users';

describe('routes the hosted login pages call', () => {
  let harness: ProviderHarness;
  let requestId: string;
  beforeAll(async () => {
    harness = await startProvider();
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

    it('answers an unknown e-mail with cidaas code 10301', async () => {
      const response = await postJson(`/useractions-srv/userexistence/${requestId}`, {
        email: 'nobody@example.com',
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        success: false,
        status: 404,
        error: { code: 10301, type: 'UserExistenceException', error: 'user not found' },
      });
    });

    it('answers malformed JSON and a missing e-mail with a 400 envelope', async () => {
      for (const body of ['{"email":', { requestId }]) {
        const response = await postJson(`/useractions-srv/userexistence/${requestId}`, body);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({
          success: false,
          status: 400,
          error: { code: 'invalid_request' },
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
      expect(await response.json()).toMatchObject({ success: false, status: 415 });
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
    it('describes the client of the request', async () => {
      const response = await fetch(`${harness.baseUrl}/public-srv/public/${requestId}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        success: true,
        status: 200,
        data: {
          client_id: 'property-portal-demo',
          client_name: 'Demo Immobilien AG',
          login_providers: [],
          registration_enabled: true,
          invite_enabled: true,
        },
      });
    });

    it('answers an unknown requestId with success false and status 400', async () => {
      const response = await fetch(`${harness.baseUrl}/public-srv/public/unknown-request`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, status: 400 });
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
