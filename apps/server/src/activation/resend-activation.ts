import { type Language, normaliseEmail } from '@concierge/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type ActivationDeps, issueActivation } from '../accounts/issue-activation';
import { consumeRateLimit } from '../http/rate-limit';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult } from '../provider-client/provider-result';

export interface ResendDeps extends ActivationDeps {
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

// A person asks a few times at most; more is somebody filling another person's inbox.
const PER_EMAIL = { limit: 5, windowSeconds: 60 * 60 };
const PER_IP = { limit: 30, windowSeconds: 15 * 60 };

/**
 * ARCHITECTURE "Resend activation": a new link, the old ones void, the e-mail via the outbox — only
 * for a registration that is not activated yet. Whatever happens (unknown e-mail, already active,
 * rate-limited, provider away), the caller answers the same, so nothing here tells whether an
 * account exists (ARCHITECTURE §6).
 */
export async function resendActivation(
  deps: ResendDeps,
  input: { email: string; language: Language; ip: string },
): Promise<void> {
  const { db, log } = deps;
  const email = normaliseEmail(input.email);
  const isWithinLimits =
    (await consumeRateLimit(db, { key: `resend-activation:ip:${input.ip}`, ...PER_IP })) &&
    (await consumeRateLimit(db, { key: `resend-activation:email:${email}`, ...PER_EMAIL }));
  if (!isWithinLimits) return;

  // A pending registration gets its e-mail from the reconciler; only a used code has an identity.
  const registration = await db
    .selectFrom('registration_codes')
    .select(['code', 'sub', 'tenant'])
    .where('claimed_email', '=', email)
    .where('status', '=', 'used')
    .executeTakeFirst();
  if (!registration?.sub) return;
  const sub = registration.sub;

  const openLink = await db
    .selectFrom('activations')
    .select('id')
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .executeTakeFirst();
  if (!openLink && !(await isPendingAtProvider(deps, sub))) return;

  await db.transaction().execute(async (trx) => {
    // The code row serialises resends for this registration: the second one voids the first's link.
    await trx
      .selectFrom('registration_codes')
      .select('code')
      .where('code', '=', registration.code)
      .forUpdate()
      .execute();
    await trx
      .updateTable('activations')
      .set({ voided_at: new Date() })
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .execute();
    await issueActivation(trx, deps, { email, sub, tenant: registration.tenant, language: input.language });
  });
  log.info({ sub }, 'activation e-mail resent');
}

/**
 * Every link used or void, yet the provider still has the e-mail unverified: a new link is due.
 * cidaas keeps such users VERIFIED with `email_verified: false`; other providers PENDING.
 */
async function isPendingAtProvider(deps: ResendDeps, sub: string): Promise<boolean> {
  const user = await deps.provider.findUserBySub(sub);
  if (user.kind !== 'answer') {
    deps.log.warn(
      { outcome: describeResult(user) },
      'resend: the provider could not say whether the account is active',
    );
    return false;
  }
  return user.data !== null && (user.data.status === 'PENDING' || user.data.emailVerified === false);
}
