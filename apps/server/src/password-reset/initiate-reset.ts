import {
  normaliseEmail,
  type ResetPasswordInitiateBody,
  resetPasswordInitiatedSchema,
} from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerTables } from '../db/schema';
import { consumeRateLimit } from '../http/rate-limit';
import type { ProviderClient } from '../provider-client/provider-client';
import { recordResetRequest } from './reset-requests';

export interface ResetDependencies {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

export interface InitiateResetInput {
  requestId: string;
  email: string;
  /** The asker's Accept-Language: the e-mail's language when the account has none on record. */
  acceptLanguage?: string;
  ip: string;
}

// A person asks a few times at most; more is somebody mailing other people's inboxes.
const PER_IP = { limit: 20, windowSeconds: 15 * 60 };
const PER_EMAIL = { limit: 5, windowSeconds: 15 * 60 };

/** The provider takes at most this much of Accept-Language (contracts: resetPasswordInitiateBodySchema). */
const ACCEPT_LANGUAGE_MAX = 200;

/**
 * Asks the provider to e-mail a reset link (provider-protocol.md, "Admin API"). Whatever happens for
 * this e-mail — unknown, refused, rate-limited here — the caller answers the same, so nothing here
 * tells whether an account exists (ARCHITECTURE §6). Only an unreachable provider is thrown
 * (ProviderUnreachableError): that depends on the provider, not on the e-mail.
 */
export async function initiatePasswordReset(
  deps: ResetDependencies,
  input: InitiateResetInput,
): Promise<void> {
  const { db, provider, log } = deps;
  const email = normaliseEmail(input.email);
  const isWithinLimits =
    (await consumeRateLimit(db, { key: `reset-initiate:ip:${input.ip}`, ...PER_IP })) &&
    (await consumeRateLimit(db, { key: `reset-initiate:email:${email}`, ...PER_EMAIL }));
  if (!isWithinLimits) return;

  const body: ResetPasswordInitiateBody = {
    requestId: input.requestId,
    email,
    processingType: 'LINK',
    resetMedium: 'email',
    ...(input.acceptLanguage ? { acceptLanguage: input.acceptLanguage.slice(0, ACCEPT_LANGUAGE_MAX) } : {}),
  };
  const result = await provider.call<unknown>('POST', '/users-srv/resetpassword/initiate', body);
  if (!result.ok) {
    log.warn({ status: result.status, code: result.code }, 'the provider refused a reset initiate');
    return;
  }
  // The answer's rprq is the request id in the e-mailed link: remember whose it is for the unlock.
  const initiated = resetPasswordInitiatedSchema.safeParse(result.data);
  if (initiated.success) await recordResetRequest(db, initiated.data.rprq, email);
}
