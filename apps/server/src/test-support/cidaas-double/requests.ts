import { randomUUID } from 'node:crypto';

/** How long cidaas's request ids live: unknown (that they expire is recorded); 30 minutes here. */
export const REQUEST_ID_LIFETIME_MS = 30 * 60 * 1000;

export interface AuthRequest {
  requestId: string;
  clientId: string;
  redirectUri: string;
  state?: string;
  issuedAt: number;
  /** Set by expireRequestIds(): as if the 30 minutes had passed. */
  isExpired: boolean;
  /** A successful login completes the request; it cannot be used again. */
  isFinished: boolean;
}

/**
 * The authorization requests behind request ids. cidaas binds everything to the id alone (no cookie),
 * so the id is all the login form, register and reset initiate need.
 */
export class RequestIdStore {
  readonly #requests = new Map<string, AuthRequest>();

  issue(clientId: string, redirectUri: string, state?: string): string {
    const requestId = randomUUID();
    this.#requests.set(requestId, {
      requestId,
      clientId,
      redirectUri,
      ...(state === undefined ? {} : { state }),
      issuedAt: Date.now(),
      isExpired: false,
      isFinished: false,
    });
    return requestId;
  }

  /** The request, if the id was issued here, has not expired and is not finished. */
  live(requestId: string | undefined): AuthRequest | undefined {
    const request = requestId === undefined ? undefined : this.#requests.get(requestId);
    if (!request || request.isExpired || request.isFinished) return undefined;
    if (Date.now() - request.issuedAt >= REQUEST_ID_LIFETIME_MS) return undefined;
    return request;
  }

  expireAll(): void {
    for (const request of this.#requests.values()) request.isExpired = true;
  }
}
