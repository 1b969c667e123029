import type { Language } from '@concierge/contracts';
import { REQUIRED_FIELD_MISSING } from '../provider-client/cidaas-codes';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult, isRefusedWith } from '../provider-client/provider-result';
import type { SignInClient } from '../provider-client/sign-in-requests';

export type ProviderRegistration =
  | { outcome: 'created'; sub: string }
  /** The provider already has a user with this e-mail. */
  | { outcome: 'email_taken' }
  /** The tenant's registration setup requires a field the portal does not ask for (cidaas 507). */
  | { outcome: 'field_required'; reason: string }
  /**
   * Nothing was sent: no fresh request id could be had for the tenant's client (refused, or the
   * provider did not answer), or the provider client held the call back (`isNotSent`).
   */
  | { outcome: 'not_sent'; reason: string; isUnreachable: boolean }
  /** A definite refusal: nothing was created. */
  | { outcome: 'refused'; reason: string }
  /** It may or may not have been created: timeout, broken connection, 5xx or an unreadable answer. */
  | { outcome: 'unknown'; reason: string };

/**
 * Registers the user at the provider for the tenant's client: a fresh request id from authz/generate
 * (cidaas refuses register without one), then `POST /users-srv/register`. Every answer is sorted
 * into what it means for the claimed code. How cidaas refuses an e-mail that is taken is not
 * recorded, so any refusal is followed by a second existence check: a user there now means "taken".
 */
export async function registerAtProvider(
  provider: ProviderClient,
  input: { email: string; password: string; language: Language; client: SignInClient },
): Promise<ProviderRegistration> {
  const requestId = await provider.generateRequestId(input.client);
  if (requestId.kind !== 'answer') {
    const reason = `authz/generate: ${describeResult(requestId)}`;
    return { outcome: 'not_sent', reason, isUnreachable: requestId.kind === 'unknown' };
  }
  const result = await provider.registerUser({
    requestId: requestId.data,
    email: input.email,
    password: input.password,
    locale: input.language,
  });
  if (result.kind === 'answer') return { outcome: 'created', sub: result.data.sub };
  if (result.kind === 'unknown') {
    // Held back (circuit open, no token): certainly not created, the code need not wait for the reconciler.
    if (result.isNotSent) return { outcome: 'not_sent', reason: result.reason, isUnreachable: true };
    return { outcome: 'unknown', reason: result.reason };
  }
  if (isRefusedWith(result, REQUIRED_FIELD_MISSING)) {
    return { outcome: 'field_required', reason: result.message ?? 'a required field is missing' };
  }
  const existing = await provider.findUserByEmail(input.email);
  if (existing.kind === 'answer' && existing.data) return { outcome: 'email_taken' };
  return { outcome: 'refused', reason: describeResult(result) };
}
