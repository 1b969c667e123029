import { randomUUID } from 'node:crypto';
import { PORTAL_API_PREFIX } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { RegistrationCodeStatus, ServerTables } from '../db/schema';

// Test helpers for registration, activation and resend: codes straight into the database, calls as
// the portal makes them.

export const DEMO_CLIENT_ID = 'property-portal-demo';
export const IT2_CLIENT_ID = 'property-portal-it2';
export const STRONG_PASSWORD = 'Sommer-2024!';

export async function insertCode(
  db: Kysely<ServerTables>,
  tenant = 'demo',
  status: RegistrationCodeStatus = 'unused',
): Promise<string> {
  const code = randomUUID();
  await db
    .insertInto('registration_codes')
    .values({
      code,
      tenant,
      status,
      created_at: new Date(),
      ...(status === 'revoked' ? { revoked_at: new Date() } : {}),
    })
    .execute();
  return code;
}

export function uniqueEmail(label = 'anna'): string {
  return `${label}.${randomUUID().slice(0, 8)}@example.ch`;
}

export function postPortalCall(
  app: FastifyInstance,
  name: string,
  body: unknown,
  options: { headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: `${PORTAL_API_PREFIX}/${name}`,
    headers: { 'content-type': 'application/json', ...options.headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

export function register(
  app: FastifyInstance,
  input: { email: string; code: string; password?: string; clientid?: string; invite_id?: string | null },
  options: { headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  return postPortalCall(
    app,
    'register-user',
    {
      email: input.email,
      password: input.password ?? STRONG_PASSWORD,
      registrationcode: input.code,
      clientid: input.clientid ?? DEMO_CLIENT_ID,
      ...(input.invite_id !== undefined ? { invite_id: input.invite_id } : {}),
    },
    options,
  );
}

export async function codeRow(db: Kysely<ServerTables>, code: string) {
  return db.selectFrom('registration_codes').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
}

export async function outboxFor(db: Kysely<ServerTables>, recipient: string) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('recipient', '=', recipient)
    .orderBy('created_at')
    .execute();
}

/** The activation link in an e-mail's text part, as the portal page receives it. */
export function activationParams(text: string): { email: string; verificationid: string; subdomain: string } {
  const link = /https?:\/\/\S*\/verification-complete\?\S+/.exec(text)?.[0];
  if (!link) throw new Error('no activation link in the e-mail');
  const params = new URL(link).searchParams;
  return {
    email: params.get('email') ?? '',
    verificationid: params.get('verificationid') ?? '',
    subdomain: params.get('subdomain') ?? '',
  };
}
