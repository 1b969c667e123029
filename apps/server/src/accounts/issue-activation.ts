import { randomUUID } from 'node:crypto';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { renderActivationMail } from '../mail/activation-mail';
import { activationLink } from '../mail/links';
import { mailBrand, tenantForMail } from '../mail/mail-brand';
import { enqueueMail } from '../outbox/mail-outbox';
import type { TenantRegistry } from '../tenants/tenant-registry';
import { hashVerificationId, newVerificationId } from './verification-id';

/** What writing an activation e-mail needs: the brand and where the portal lives. */
export interface ActivationMailContext {
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl' | 'activationLinkTtlHours' | 'runtime'>;
}

/** What issuing activation links needs outside a transaction of the caller's: the database too. */
export interface ActivationDeps extends ActivationMailContext {
  db: Kysely<ServerTables>;
}

export interface ActivationFor {
  email: string;
  sub: string;
  /** The tenant's subdomain. */
  tenant: string;
  language: string | null;
}

/**
 * A new activation link (its verification id kept only as a hash) and its e-mail in the outbox.
 * Runs inside the caller's transaction, so the link exists exactly when its e-mail does.
 */
export async function issueActivation(
  trx: Kysely<ServerTables>,
  context: ActivationMailContext,
  activation: ActivationFor,
): Promise<void> {
  const { registry, config } = context;
  const language: Language =
    activation.language && isLanguage(activation.language) ? activation.language : FALLBACK_LANGUAGE;
  const verificationId = newVerificationId();
  const now = new Date();
  await trx
    .insertInto('activations')
    .values({
      id: randomUUID(),
      verification_hash: hashVerificationId(verificationId),
      email: activation.email,
      sub: activation.sub,
      tenant: activation.tenant,
      language,
      created_at: now,
      expires_at: new Date(now.getTime() + config.activationLinkTtlHours * 3600 * 1000),
    })
    .execute();
  const entry = tenantForMail(registry, activation.tenant, config.runtime.env);
  await enqueueMail(
    trx,
    renderActivationMail({
      to: activation.email,
      language,
      brand: mailBrand(registry, entry, config.portalUrl),
      link: activationLink(config.portalUrl, {
        email: activation.email,
        verificationId,
        subdomain: activation.tenant,
      }),
      validHours: config.activationLinkTtlHours,
    }),
  );
}

/**
 * How long an activation link's row outlives its expiry: until then a used link still answers
 * "already activated" and an expired one "expired"; afterwards any old link is simply invalid.
 */
export const ACTIVATION_RETENTION_DAYS_AFTER_EXPIRY = 30;

/** Housekeeping: links (used, voided or never used) expired a month ago. */
export async function pruneActivations(db: Kysely<ServerTables>): Promise<void> {
  await db
    .deleteFrom('activations')
    .where(
      'expires_at',
      '<',
      new Date(Date.now() - ACTIVATION_RETENTION_DAYS_AFTER_EXPIRY * 24 * 3600 * 1000),
    )
    .execute();
}
