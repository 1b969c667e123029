import type { Language } from '@concierge/contracts';
import {
  type ProviderClient,
  type ProviderResult,
  ProviderUnreachableError,
} from '../provider-client/provider-client';

export type ProviderRegistration =
  | { outcome: 'created'; sub: string }
  /** The provider already has a user with this e-mail (409). */
  | { outcome: 'email_taken' }
  /** A definite refusal: nothing was created. */
  | { outcome: 'refused'; status: number; reason: string }
  /** It may or may not have been created: timeout, broken connection, 5xx or an unreadable answer. */
  | { outcome: 'unknown'; reason: string };

/**
 * `POST /users-srv/register` (provider-protocol.md, "Admin API"): the user starts PENDING. Every
 * answer is sorted into what it means for the claimed code; only a 4xx is a definite "no".
 */
export async function registerAtProvider(
  provider: ProviderClient,
  input: { email: string; password: string; language: Language },
): Promise<ProviderRegistration> {
  let result: ProviderResult<{ sub?: unknown }>;
  try {
    result = await provider.call<{ sub?: unknown }>('POST', '/users-srv/register', {
      email: input.email,
      password: input.password,
      password_echo: input.password,
      provider: 'self',
      locale: input.language,
    });
  } catch (error) {
    if (error instanceof ProviderUnreachableError) return { outcome: 'unknown', reason: error.message };
    // The token request was refused: the register request itself was never sent.
    return { outcome: 'refused', status: 502, reason: (error as Error).message };
  }
  if (result.ok) {
    const sub = result.data?.sub;
    return typeof sub === 'string' && sub.length > 0
      ? { outcome: 'created', sub }
      : { outcome: 'unknown', reason: 'success without a sub' };
  }
  if (result.status === 409) return { outcome: 'email_taken' };
  if (result.status >= 400 && result.status < 500) {
    return {
      outcome: 'refused',
      status: result.status,
      reason: `HTTP ${result.status} ${result.code ?? ''}`.trim(),
    };
  }
  return { outcome: 'unknown', reason: `HTTP ${result.status}` };
}
