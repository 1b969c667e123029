import type { ClientInfo, PageSignInRequest, TenantInfo } from '@concierge/contracts';
import type { ProviderClient } from '../provider-client/provider-client';
import type { ProviderResult } from '../provider-client/provider-result';
import type { SignInClient } from '../provider-client/sign-in-requests';

export interface PageSignInRequestOptions {
  /**
   * A page waits no longer for each of its provider calls; without an answer it says the provider is
   * away (and, with its script, asks once more after load). Generous: cidaas answers in a fraction of
   * this, and a busy moment must not read as an outage.
   */
  timeoutMs?: number;
}

/**
 * How a page stands with its sign-in request (spec §2):
 * - `request`: the address's request id, checked, or a fresh one for the page's tenant (`isFresh`);
 * - `unreachable`: the provider did not answer; the page says so and keeps what the tenant brought;
 * - `refused`: the provider answered but gave no request (spec §2: off to the customer's /login);
 * - `limited`: this address asked for too many fresh requests lately.
 */
export type PageRequestOutcome =
  | { kind: 'request'; request: PageSignInRequest; isFresh: boolean }
  | { kind: 'unreachable' }
  | { kind: 'refused' }
  | { kind: 'limited' };

export interface PageRequestLookup {
  requestIdInUrl: unknown;
  /** The provider sent the visitor back with an error (e.g. an expired request): read it anew. */
  recheck: boolean;
  /** The page's tenant's client, for a fresh request. */
  client: SignInClient;
  /** Counts a fresh request against the visitor's address; false when it is over its limit. */
  mayObtainFresh(): boolean;
}

/**
 * A request id's client info is trusted this long. Short: a request that was used to sign in (or
 * expired) must not be shown again to the next visitor of the same address (history, a bookmark, a
 * second tab) — it would fail as "expired" once. Long enough for a burst of loads of one address.
 */
const CLIENT_INFO_TTL_MS = 2_000;
/**
 * What cidaas answers for a request id is its client's settings (name, logo, terms, login providers;
 * cidaas-facts.md, "Public info"), the same for every request of the client. So a fresh request takes
 * its client's info from the client's last answer while that is this young, instead of a second call
 * per page: a change at cidaas (a new logo) shows within a minute.
 */
const FRESH_CLIENT_INFO_TTL_MS = 60_000;
const TENANT_INFO_TTL_MS = 10 * 60_000;
const CACHED_MAX = 5000;
// Request ids are opaque (cidaas: UUIDs); anything else is not worth a call.
const REQUEST_ID = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * The sign-in request every page that needs one is rendered with (spec §2 and §3): the request id of
 * the address, checked by reading its client info, or else a fresh one the server asks the provider
 * for (cidaas binds a request to its id alone, cidaas-facts.md). So the page arrives with everything
 * its form needs: it works before its scripts run and without JavaScript, and the browser makes no
 * call to the provider after load.
 */
export class PageSignInRequests {
  readonly #clientInfos = new Map<string, { answer: Promise<ProviderResult<ClientInfo>>; until: number }>();
  /** By client id: one entry per tenant's client. */
  readonly #freshClientInfos = new Map<string, { info: ClientInfo; until: number }>();
  #tenantInfo: { info: TenantInfo; until: number } | undefined;
  readonly #timeoutMs: number;

  constructor(
    private readonly provider: ProviderClient,
    options: PageSignInRequestOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 3000;
  }

  async forPage({
    requestIdInUrl,
    recheck,
    client,
    mayObtainFresh,
  }: PageRequestLookup): Promise<PageRequestOutcome> {
    if (typeof requestIdInUrl === 'string' && REQUEST_ID.test(requestIdInUrl)) {
      if (recheck) this.#clientInfos.delete(requestIdInUrl);
      const info = await this.#clientInfo(requestIdInUrl);
      if (info.kind === 'answer') {
        return {
          kind: 'request',
          request: { requestId: requestIdInUrl, clientInfo: info.data },
          isFresh: false,
        };
      }
      if (info.kind === 'unknown') return { kind: 'unreachable' };
    }
    // No request id, or one the provider no longer knows: a fresh one for the page's tenant.
    if (this.provider.isKnownAway) return { kind: 'unreachable' };
    if (!mayObtainFresh()) return { kind: 'limited' };
    const fresh = await this.#withinTime(this.provider.generateRequestId(client));
    if (fresh.kind !== 'answer') return { kind: fresh.kind === 'unknown' ? 'unreachable' : 'refused' };
    const known = this.#freshClientInfos.get(client.clientId);
    if (known && known.until > Date.now()) {
      return { kind: 'request', request: { requestId: fresh.data, clientInfo: known.info }, isFresh: true };
    }
    const info = await this.#clientInfo(fresh.data);
    if (info.kind !== 'answer') return { kind: info.kind === 'unknown' ? 'unreachable' : 'refused' };
    this.#freshClientInfos.set(client.clientId, {
      info: info.data,
      until: Date.now() + FRESH_CLIENT_INFO_TTL_MS,
    });
    return { kind: 'request', request: { requestId: fresh.data, clientInfo: info.data }, isFresh: true };
  }

  /** Whether the provider is known to be away now (its calls fail fast): every page says so. */
  get isProviderKnownAway(): boolean {
    return this.provider.isKnownAway;
  }

  /** spec §3: tenant info, read once and cached (here for every page of this instance). */
  async tenantInfo(): Promise<TenantInfo | undefined> {
    if (this.#tenantInfo && this.#tenantInfo.until > Date.now()) return this.#tenantInfo.info;
    const result = await this.#withinTime(this.provider.tenantInfo());
    if (result.kind !== 'answer') return this.#tenantInfo?.info;
    this.#tenantInfo = { info: result.data, until: Date.now() + TENANT_INFO_TTL_MS };
    return result.data;
  }

  /** One call for every page that asks about the same request id at once. */
  #clientInfo(requestId: string): Promise<ProviderResult<ClientInfo>> {
    const cached = this.#clientInfos.get(requestId);
    if (cached && cached.until > Date.now()) return cached.answer;
    const answer = this.#withinTime(this.provider.clientInfo(requestId));
    if (this.#clientInfos.size >= CACHED_MAX) this.#clientInfos.clear();
    this.#clientInfos.set(requestId, { answer, until: Date.now() + CLIENT_INFO_TTL_MS });
    // Only an answer is kept: after a refusal or none, the next page asks again.
    void answer.then((result) => {
      if (result.kind !== 'answer' && this.#clientInfos.get(requestId)?.answer === answer) {
        this.#clientInfos.delete(requestId);
      }
    });
    return answer;
  }

  /** The call goes on when the page stops waiting for it; the page then counts it as unanswered. */
  #withinTime<T>(call: Promise<ProviderResult<T>>): Promise<ProviderResult<T>> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ProviderResult<T>>((resolve) => {
      timer = setTimeout(
        () => resolve({ kind: 'unknown', reason: 'no answer in page time' }),
        this.#timeoutMs,
      );
    });
    return Promise.race([call, late]).finally(() => clearTimeout(timer));
  }
}
