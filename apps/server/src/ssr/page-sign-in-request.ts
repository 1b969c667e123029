import type { ClientInfo, PageSignInRequest, TenantInfo } from '@concierge/contracts';
import type { ProviderClient } from '../provider-client/provider-client';
import type { ProviderResult } from '../provider-client/provider-result';

export interface PageSignInRequestOptions {
  /** A page waits no longer for the provider; without an answer the browser asks itself. */
  timeoutMs?: number;
}

const CLIENT_INFO_TTL_MS = 60_000;
const TENANT_INFO_TTL_MS = 10 * 60_000;
const CACHED_MAX = 5000;
// Request ids are opaque (cidaas: UUIDs); anything else is not worth a call.
const REQUEST_ID = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * The sign-in request a page is rendered with (spec §2 and §3): the request id of the address,
 * checked by reading its client info. So the page arrives with everything its form needs: it works
 * before its scripts run, without JavaScript at all, and makes no call after load.
 *
 * A page without a usable request id is rendered without one, and the browser asks the provider for
 * a fresh one itself: cidaas would finish a request the server asked for (cidaas-facts.md), but the
 * embedded provider ties it to the cookies of whoever asked, so only the browser's own works there.
 * When the provider does not answer in time, the page is rendered without, and the browser tries.
 */
export class PageSignInRequests {
  readonly #clientInfos = new Map<string, { info: ClientInfo; until: number }>();
  #tenantInfo: { info: TenantInfo; until: number } | undefined;
  readonly #timeoutMs: number;

  constructor(
    private readonly provider: ProviderClient,
    options: PageSignInRequestOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 1500;
  }

  /**
   * `recheck`: the provider sent the visitor back with an error (e.g. an expired request), so what
   * was read of the request id before is not trusted.
   */
  async forPage(requestIdInUrl: unknown, recheck = false): Promise<PageSignInRequest | undefined> {
    if (typeof requestIdInUrl !== 'string' || !REQUEST_ID.test(requestIdInUrl)) return undefined;
    if (recheck) this.#clientInfos.delete(requestIdInUrl);
    const info = await this.#clientInfo(requestIdInUrl);
    return info.kind === 'answer' ? { requestId: requestIdInUrl, clientInfo: info.data } : undefined;
  }
  /** spec §3: tenant info, read once and cached (here for every page of this instance). */
  async tenantInfo(): Promise<TenantInfo | undefined> {
    if (this.#tenantInfo && this.#tenantInfo.until > Date.now()) return this.#tenantInfo.info;
    const result = await this.#withinTime(this.provider.tenantInfo());
    if (result.kind !== 'answer') return this.#tenantInfo?.info;
    this.#tenantInfo = { info: result.data, until: Date.now() + TENANT_INFO_TTL_MS };
    return result.data;
  }

  async #clientInfo(requestId: string): Promise<ProviderResult<ClientInfo>> {
    const cached = this.#clientInfos.get(requestId);
    if (cached && cached.until > Date.now()) return { kind: 'answer', status: 200, data: cached.info };
    const result = await this.#withinTime(this.provider.clientInfo(requestId));
    if (result.kind === 'answer') {
      if (this.#clientInfos.size >= CACHED_MAX) this.#clientInfos.clear();
      this.#clientInfos.set(requestId, { info: result.data, until: Date.now() + CLIENT_INFO_TTL_MS });
    }
    return result;
  }

  /** The call goes on when the page stops waiting for it; its answer then only fills the cache. */
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
