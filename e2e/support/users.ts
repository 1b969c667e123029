import { randomUUID } from 'node:crypto';
import { urls } from './urls';

export const ADMIN_CLIENT_ID = 'concierge-server';
export const ADMIN_CLIENT_SECRET = 'e2e-admin-secret';
/** The server's admin API token for this run (codes and invitations). */
export const SERVER_ADMIN_TOKEN = 'e2e-server-admin-token';
export const ROLES_CLIENT_ID = 'e2e-roles-required';
export const DEMO_USER = { email: 'demo@concierge.test', password: 'Demo-Passw0rd!' };

async function adminToken(): Promise<string> {
  const response = await fetch(`${urls.provider}/token-srv/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: ADMIN_CLIENT_ID,
      client_secret: ADMIN_CLIENT_SECRET,
    }),
  });
  if (!response.ok) throw new Error(`admin token: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export interface TestUser {
  email: string;
  password: string;
  sub: string;
}

export function uniqueEmail(prefix = 'tenant'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.ch`;
}

/** A fresh sign-in request of the demo tenant's client: cidaas registers only with one. */
async function freshRequestId(): Promise<string> {
  const response = await fetch(`${urls.provider}/authz-srv/authrequest/authz/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: 'property-portal-demo',
      redirect_uri: `${urls.propertyPortal}/callback`,
      response_type: 'code',
      scope: 'openid',
    }),
  });
  const body = (await response.json()) as { data?: { requestId?: string } };
  if (!body.data?.requestId) throw new Error(`authz/generate: ${JSON.stringify(body)}`);
  return body.data.requestId;
}

/**
 * A tenant account made through the provider's admin API, as the server would: as cidaas keeps
 * self-registered users (VERIFIED, e-mail not verified) until activated.
 */
export async function createUser(
  options: { activated?: boolean; roles?: string[]; locale?: string } = {},
): Promise<TestUser> {
  const token = await adminToken();
  const email = uniqueEmail();
  const password = 'Sonnen-Weg7!';
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const registered = await fetch(`${urls.provider}/users-srv/register`, {
    method: 'POST',
    headers: { ...headers, requestId: await freshRequestId() },
    body: JSON.stringify({
      email,
      password,
      password_echo: password,
      provider: 'self',
      given_name: 'Test',
      locale: options.locale,
      roles: options.roles,
    }),
  });
  const body = (await registered.json()) as { success: boolean; data?: { sub: string } };
  if (!body.success || !body.data) throw new Error(`register: ${JSON.stringify(body)}`);
  if (options.activated ?? true) {
    // cidaas's documented admin update (provider-protocol.md).
    const verified = await fetch(`${urls.provider}/user-srv/users/${body.data.sub}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ userData: { provider: 'self', email_verified: true } }),
    });
    if (!verified.ok) throw new Error(`mark e-mail verified: HTTP ${verified.status}`);
  }
  return { email, password, sub: body.data.sub };
}

/** A fresh, activated tenant account. */
export function createVerifiedUser(): Promise<TestUser> {
  return createUser({ activated: true });
}
