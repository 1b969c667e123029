import { randomUUID } from 'node:crypto';
import { urls } from './urls';

export const ADMIN_CLIENT_ID = 'concierge-server';
export const ADMIN_CLIENT_SECRET = 'e2e-admin-secret';
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

/** A fresh, activated tenant account made through the provider's admin API, as the server would. */
export async function createVerifiedUser(): Promise<{ email: string; password: string; sub: string }> {
  const token = await adminToken();
  const email = `tenant-${randomUUID().slice(0, 8)}@example.ch`;
  const password = 'Sonnen-Weg7!';
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const registered = await fetch(`${urls.provider}/users-srv/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password, password_echo: password, provider: 'self', given_name: 'Test' }),
  });
  const body = (await registered.json()) as { success: boolean; data?: { sub: string } };
  if (!body.success || !body.data) throw new Error(`register: ${JSON.stringify(body)}`);
  const verified = await fetch(`${urls.provider}/user-srv/users/${body.data.sub}/status`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ status: 'VERIFIED' }),
  });
  if (!verified.ok) throw new Error(`status: HTTP ${verified.status}`);
  return { email, password, sub: body.data.sub };
}
