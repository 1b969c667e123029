import type { ProviderHttp } from './provider-http';
import { answer, type ProviderResult, unknown } from './provider-result';

export interface NewProviderUser {
  /** From authz/generate for the tenant's client: cidaas refuses register without it (10001). */
  requestId: string;
  email: string;
  password: string;
  /** The person's language, for the provider's own e-mails to them. */
  locale?: string;
}

export interface RegisteredUser {
  sub: string;
  status: string | undefined;
  /** cidaas: false for every self-registered user. */
  emailVerified: boolean | undefined;
}

/** `POST /users-srv/register` with the `requestId` header; a success without a sub is no success. */
export async function registerUser(
  http: ProviderHttp,
  user: NewProviderUser,
): Promise<ProviderResult<RegisteredUser>> {
  const result = await http.admin<{ sub?: unknown; userStatus?: unknown; email_verified?: unknown }>({
    method: 'POST',
    path: '/users-srv/register',
    headers: { requestId: user.requestId },
    // Never retried: a second request after a lost answer would meet the user the first created.
    operation: 'register',
    body: {
      email: user.email,
      password: user.password,
      password_echo: user.password,
      provider: 'self',
      ...(user.locale ? { locale: user.locale } : {}),
    },
  });
  if (result.kind !== 'answer') return result;
  const sub = result.data?.sub;
  if (typeof sub !== 'string' || sub === '') return unknown('register answered without a sub');
  return answer({
    sub,
    status: typeof result.data?.userStatus === 'string' ? result.data.userStatus : undefined,
    emailVerified: typeof result.data?.email_verified === 'boolean' ? result.data.email_verified : undefined,
  });
}
