import type { ProviderDb } from '../db/schema';
import { DatabaseAdapter } from './adapter';

/**
 * cidaas binds a sign-in request to its request id alone (cidaas-facts.md, "Hosted-page login"): a
 * request the portal's server asked for is finished by whichever browser posts the login form with
 * its id. oidc-provider instead ties the end of an interaction to cookies it set in the browser that
 * started it (the resume cookie). So the cookies `authz/generate` was answered with are kept with the
 * request, and the successful login sets them in the browser that signs in, just before it is sent
 * to resume: the request id is then all a browser needs, as with cidaas.
 */
export class RequestCookies {
  readonly #store: DatabaseAdapter;

  constructor(db: ProviderDb) {
    this.#store = new DatabaseAdapter(db, 'RequestCookies');
  }

  async keep(requestId: string, setCookie: string[], lifetimeSeconds: number): Promise<void> {
    await this.#store.upsert(requestId, { setCookie }, lifetimeSeconds);
  }

  /** The Set-Cookie values of a request the provider generated; none for one a browser began. */
  async of(requestId: string): Promise<string[]> {
    const kept = (await this.#store.find(requestId))?.setCookie;
    return Array.isArray(kept) ? kept.filter((value): value is string => typeof value === 'string') : [];
  }
}
