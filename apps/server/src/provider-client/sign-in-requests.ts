import type { ProviderHttp } from './provider-http';
import { answer, type ProviderResult, unknown } from './provider-result';

export interface SignInClient {
  clientId: string;
  /** Registered for the client: where the request's sign-in would end. */
  redirectUri: string;
}

/**
 * A fresh request id for a tenant's client (`POST /authz-srv/authrequest/authz/generate`): register
 * needs one in its `requestId` header, and reset initiate one that has not expired. cidaas binds
 * everything to the request id alone, so the server can ask for it as well as a browser can.
 */
export async function generateRequestId(
  http: ProviderHttp,
  client: SignInClient,
): Promise<ProviderResult<string>> {
  const result = await http.anonymous<{ requestId?: unknown }>({
    method: 'POST',
    path: '/authz-srv/authrequest/authz/generate',
    operation: 'generate_request_id',
    // Retried after no answer: a request id the first attempt may have made is never used and
    // expires on its own (an hour); it changes no account and nothing anybody sees.
    isIdempotent: true,
    body: {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'openid email profile mobile',
      nonce: crypto.randomUUID(),
    },
  });
  if (result.kind !== 'answer') return result;
  const requestId = result.data?.requestId;
  return typeof requestId === 'string' && requestId !== ''
    ? answer(requestId)
    : unknown('authz/generate answered without a requestId');
}
