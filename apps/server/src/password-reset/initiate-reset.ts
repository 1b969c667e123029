import { normaliseEmail } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { callError, providerUnreachable } from '../http/errors';
import { isWithinRateLimits } from '../http/rate-limit';
import { rulesOf } from '../http/rate-limit-rules';
import { INVALID_REQUEST_ID } from '../provider-client/cidaas-codes';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult, isRefusedWith } from '../provider-client/provider-result';
import type { SignInClient } from '../provider-client/sign-in-requests';
import { recordResetRequest } from './reset-requests';

export interface ResetDependencies {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  log: FastifyBaseLogger;
  config: Pick<ServerConfig, 'rateLimits'>;
}

export interface InitiateResetInput {
  requestId: string;
  email: string;
  /** The asker's Accept-Language: the e-mail's language when the account has none on record. */
  acceptLanguage?: string;
  ip: string;
  /** The page's tenant's client: a fresh request id comes from it when the page's has expired. */
  client: SignInClient;
}

/**
 * Asks the provider to e-mail a reset link. Whatever happens for this e-mail — unknown, refused,
 * rate-limited here — the caller answers the same, so nothing here tells whether an account exists
 * (ARCHITECTURE §6). What depends on the provider and not on the e-mail is said: an expired request
 * id (cidaas 10001, the page stood open too long) gets a fresh one and one retry, and only when that
 * fails too, or the provider does not answer, is the person told to try again.
 */
export async function initiatePasswordReset(
  deps: ResetDependencies,
  input: InitiateResetInput,
): Promise<void> {
  const { db, provider, log } = deps;
  const email = normaliseEmail(input.email);
  const limits = rulesOf(deps.config.rateLimits.resetInitiate, { address: input.ip, email });
  if (!(await isWithinRateLimits(db, limits))) return;

  const initiate = (requestId: string) =>
    provider.initiateReset({ requestId, email, acceptLanguage: input.acceptLanguage });
  // A form sent without JavaScript from a page that had no request id comes without one.
  let result = input.requestId ? await initiate(input.requestId) : undefined;
  if (result === undefined || isRefusedWith(result, INVALID_REQUEST_ID)) {
    const fresh = await provider.generateRequestId(input.client);
    if (fresh.kind === 'answer') result = await initiate(fresh.data);
    // The provider went away meanwhile: that is what the person is told.
    else if (fresh.kind === 'unknown') result = fresh;
  }
  if (result === undefined) throw clientRefused();
  if (result.kind === 'answer') {
    // The rprq is the request id in the e-mailed link: remember whose it is for the unlock.
    await recordResetRequest(db, result.data, email);
    return;
  }
  log.warn({ outcome: describeResult(result) }, 'reset initiate did not go through');
  if (result.kind === 'unknown') {
    throw providerUnreachable('The identity provider cannot be reached. Please try again later.');
  }
  if (isRefusedWith(result, INVALID_REQUEST_ID)) throw clientRefused();
}

/** A fresh request id could not be had either: the tenant's client at the provider is the problem. */
const clientRefused = () =>
  callError(
    'password-reset-initiate',
    503,
    'default',
    'The password reset cannot be started right now. Please try again.',
  );
