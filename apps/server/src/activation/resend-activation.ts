import { type Language, normaliseEmail } from '@concierge/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type ActivationDeps, issueActivation } from '../accounts/issue-activation';
import type { ServerConfig } from '../config';
import { isWithinRateLimits } from '../http/rate-limit';
import { rulesOf } from '../http/rate-limit-rules';
import { renderAlreadyActiveMail } from '../mail/already-active-mail';
import { customerLoginLink, passwordResetLink } from '../mail/links';
import { mailBrand, tenantForMail } from '../mail/mail-brand';
import { enqueueMail } from '../outbox/mail-outbox';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult, type ProviderResult } from '../provider-client/provider-result';
import type { ProviderUser } from '../provider-client/users';

export interface ResendDeps extends ActivationDeps {
  provider: ProviderClient;
  log: FastifyBaseLogger;
  config: ActivationDeps['config'] & Pick<ServerConfig, 'rateLimits'>;
}

/**
 * ARCHITECTURE "Resend activation": a new link, the old ones void, the e-mail via the outbox — for a
 * registration that is not activated yet. An account that is active already gets a short note
 * instead (issue 28): it is active, sign in, or set a new password — in the brand of the tenant it
 * registered with, else of the page it was asked on. Whatever happens (unknown e-mail, rate-limited,
 * provider away), the caller answers the same, and only the address's owner reads which e-mail it
 * was, so nothing here tells the asker whether an account exists (ARCHITECTURE §6).
 */
export async function resendActivation(
  deps: ResendDeps,
  input: { email: string; language: Language; ip: string; pageTenant: string },
): Promise<void> {
  const { db, provider, log } = deps;
  const email = normaliseEmail(input.email);
  const limits = rulesOf(deps.config.rateLimits.resendActivation, { address: input.ip, email });
  if (!(await isWithinRateLimits(db, limits))) return;

  // A pending registration gets its e-mail from the reconciler; only a used code has an identity.
  const registration = await db
    .selectFrom('registration_codes')
    .select(['code', 'sub', 'tenant'])
    .where('claimed_email', '=', email)
    .where('status', '=', 'used')
    .executeTakeFirst();
  if (!registration?.sub) {
    // An account Concierge did not register (one from before it, made at the provider): only the
    // note, since Concierge has no registration to activate.
    if (!registration && (await accountState(deps, () => lookUpByEmail(provider, email))) === 'active') {
      await sendAlreadyActive(deps, { email, tenant: input.pageTenant, language: input.language });
    }
    return;
  }
  const sub = registration.sub;

  const openLink = await db
    .selectFrom('activations')
    .select('id')
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .executeTakeFirst();
  // Every link used or void, yet the provider may still have the e-mail unverified: a new link is due.
  const state = openLink ? 'pending' : await accountState(deps, () => provider.findUserBySub(sub));
  if (state === 'active') {
    await sendAlreadyActive(deps, { email, tenant: registration.tenant, language: input.language });
    return;
  }
  if (state !== 'pending') return;

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
 * What the provider says of the account: `pending` while its e-mail is unverified (cidaas keeps such
 * users VERIFIED with `email_verified: false`, other providers PENDING), `active` once verified,
 * `unknown` when there is none or the provider could not say.
 */
async function accountState(
  deps: ResendDeps,
  lookUp: () => Promise<ProviderResult<ProviderUser | null>>,
): Promise<'pending' | 'active' | 'unknown'> {
  const user = await lookUp();
  if (user.kind !== 'answer') {
    deps.log.warn(
      { outcome: describeResult(user) },
      'resend: the provider could not say whether the account is active',
    );
    return 'unknown';
  }
  if (user.data === null) return 'unknown';
  return user.data.status === 'PENDING' || user.data.emailVerified === false ? 'pending' : 'active';
}

/** The user with this e-mail with its status: the search by e-mail need not carry it (users.ts). */
async function lookUpByEmail(
  provider: ProviderClient,
  email: string,
): Promise<ProviderResult<ProviderUser | null>> {
  const found = await provider.findUserByEmail(email);
  return found.kind === 'answer' && found.data ? provider.findUserBySub(found.data.sub) : found;
}

/** The note for an account that is active already, via the outbox. */
async function sendAlreadyActive(
  deps: ResendDeps,
  note: { email: string; tenant: string; language: Language },
): Promise<void> {
  const { registry, config } = deps;
  const entry = tenantForMail(registry, note.tenant, config.runtime.env);
  await enqueueMail(
    deps.db,
    renderAlreadyActiveMail({
      to: note.email,
      language: note.language,
      brand: mailBrand(registry, entry, config.portalUrl),
      signInLink: customerLoginLink(entry.portalUrl),
      resetLink: passwordResetLink(config.portalUrl, { email: note.email, subdomain: entry.subdomain }),
    }),
  );
  deps.log.info('resend: the account is active already; a note went instead of a link');
}
