import { randomUUID } from 'node:crypto';
import { isLanguage, type Language, normaliseEmail, pickLanguage } from '@concierge/contracts';
import type { ClientConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import { renderResetMail } from '../mail/reset-mail';
import { enqueue } from '../outbox/outbox';
import { hashExchangeId, newResetIds, RESET_RATE_LIMIT } from './reset-requests';

export interface InitiateResetInput {
  email: string;
  requestId: string;
  /** Accept-Language of the person asking; used when the user has no language on record. */
  acceptLanguage?: string;
}

export interface InitiateResetContext {
  portalUrl: string;
  /** The client of the requestId's interaction; undefined when its client is no longer configured. */
  client?: ClientConfig;
  /** The name to show when the client is not known. */
  fallbackTenantName: string;
  /** How long the link works, in minutes (RESET_LINK_LIFETIME_MINUTES); the e-mail says it. */
  linkLifetimeMinutes: number;
}

export interface InitiateResetResult {
  /** Random and unrelated to anything stored when no e-mail goes out, so it tells nothing. */
  rprq: string;
  /** The reset e-mail in the mail outbox, to be delivered after the commit. */
  mailIds: string[];
}

/**
 * Stores a reset request and its e-mail in one transaction — for a known e-mail within the rate
 * limit; otherwise nothing at all. The user's row is locked first so that parallel requests for one
 * account cannot slip past the limit together.
 */
export async function initiatePasswordReset(
  db: ProviderDb,
  input: InitiateResetInput,
  context: InitiateResetContext,
): Promise<InitiateResetResult> {
  const ids = newResetIds();
  const nothing: InitiateResetResult = { rprq: ids.rprq, mailIds: [] };
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['sub', 'email', 'locale'])
      .where('email', '=', normaliseEmail(input.email))
      .forUpdate()
      .executeTakeFirst();
    if (!user) return nothing;
    const recent = await trx
      .selectFrom('password_reset_requests')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('sub', '=', user.sub)
      .where('created_at', '>', new Date(Date.now() - RESET_RATE_LIMIT.windowMs))
      .executeTakeFirstOrThrow();
    // pg returns count(*) (a bigint) as a string.
    if (Number(recent.count) >= RESET_RATE_LIMIT.maxRequests) return nothing;

    const { client } = context;
    // A newer link voids the older ones: only the latest e-mail works, so a link left in an old
    // e-mail (or a mailbox someone else reads) is useless once the user has asked again.
    await trx
      .updateTable('password_reset_requests')
      .set({ used_at: new Date() })
      .where('sub', '=', user.sub)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('password_reset_requests')
      .values({
        rprq: ids.rprq,
        exchange_id_hash: hashExchangeId(ids.exchangeId),
        sub: user.sub,
        request_id: input.requestId,
        client_id: client?.client_id ?? null,
        subdomain: client?.subdomain ?? null,
        expires_at: new Date(Date.now() + context.linkLifetimeMinutes * 60 * 1000),
      })
      .execute();
    const mail = renderResetMail({
      to: user.email,
      language: mailLanguage(user.locale, input.acceptLanguage),
      tenantName: client?.client_name ?? context.fallbackTenantName,
      brandColor: client?.brand_color,
      link: resetLink(context.portalUrl, {
        // cidaas's hosted-page example spells it exchangeId (provider-protocol.md, "The reset link").
        exchangeId: ids.exchangeId,
        rprq: ids.rprq,
        requestId: input.requestId,
        subdomain: client?.subdomain,
        email: user.email,
      }),
      lifetimeMinutes: context.linkLifetimeMinutes,
    });
    // Its own id: the outbox's ids appear in logs, the rprq must not.
    const mailIds = await enqueue(trx, 'mail_outbox', [{ id: randomUUID(), payload: mail }]);
    return { rprq: ids.rprq, mailIds };
  });
}

/** The user's own language when it is one of ours, else the asker's browser language, else German. */
export function mailLanguage(userLocale: string | null, acceptLanguage: string | undefined): Language {
  const base = userLocale?.split(/[-_]/, 1)[0]?.toLowerCase();
  return base && isLanguage(base) ? base : pickLanguage(acceptLanguage);
}

/** `{portal}/password-set?exchangeId&rprq&requestId&subdomain&email` (provider-protocol.md). */
export function resetLink(portalUrl: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${portalUrl}/password-set`);
  for (const [key, value] of Object.entries(params)) if (value) url.searchParams.set(key, value);
  return url.href;
}
