import { urls } from './urls';
import { SERVER_ADMIN_TOKEN } from './users';

async function adminCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${urls.portal}/api/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${SERVER_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; data: T };
  if (!json.success) throw new Error(`admin ${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

/** A registration code for a tenant, as an operator prints it on a letter. */
export async function createRegistrationCode(tenant = 'demo'): Promise<string> {
  const { codes } = await adminCall<{ codes: { code: string }[] }>('POST', '/codes', { tenant, count: 1 });
  return codes[0]!.code;
}

export async function createInvitation(email: string, tenant = 'demo', language = 'de') {
  const { invitation } = await adminCall<{ invitation: { id: string; code: string } }>(
    'POST',
    '/invitations',
    {
      tenant,
      email,
      language,
    },
  );
  return invitation;
}

/** The property manager takes an invitation back. */
export async function revokeInvitation(id: string): Promise<void> {
  await adminCall('POST', `/invitations/${id}/revoke`);
}
