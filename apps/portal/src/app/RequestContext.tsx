import type { TenantFlags } from '@concierge/contracts';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import {
  type ClientInfo,
  fetchClientInfo,
  fetchTenantInfo,
  generateRequestId,
  type TenantInfo,
} from '../api/provider';
import { useRuntimeConfig } from '../config/runtime-config';
import { useTenant } from '../config/tenant';
import { assignLocation } from '../hooks/browser-location';
import { cachedJson, cacheJson, rememberedRequestId, rememberRequestId } from './session-params';

// spec §2: these pages work without a sign-in request and never send the visitor away for one.
const WITHOUT_REQUEST = ['/verification-complete', '/password-set', '/password-set-success'];

export interface RequestContextValue {
  /** The provider's request id the page works with ('' while none is known). */
  requestId: string;
  /** spec §3 client info, read once per request id; null until known or when it cannot be had. */
  clientInfo: ClientInfo | null;
  /** spec §3: the provider's tenant info, read once per tab; null until known. */
  tenantInfo: TenantInfo | null;
  status: 'checking' | 'ready' | 'unavailable';
}

// Request ids this tab was given by the provider: never ask for another because of one of these.
const generatedRequestIds = new Set<string>();

const RequestContext = createContext<RequestContextValue>({
  requestId: '',
  clientInfo: null,
  tenantInfo: null,
  status: 'checking',
});

async function clientInfoOnce(baseUrl: string, requestId: string): Promise<ClientInfo | null> {
  const cached = cachedJson<ClientInfo>(requestId);
  if (cached) return cached;
  const info = await fetchClientInfo(baseUrl, requestId);
  if (info) cacheJson(requestId, info);
  return info;
}

type RequestUpdate = Partial<RequestContextValue>;
const SetRequestContext = createContext<(update: RequestUpdate) => void>(() => {});

const TENANT_INFO_KEY = 'tenant-info';

async function tenantInfoOnce(baseUrl: string): Promise<TenantInfo | null> {
  const cached = cachedJson<TenantInfo>(TENANT_INFO_KEY);
  if (cached) return cached;
  const info = await fetchTenantInfo(baseUrl);
  if (info) cacheJson(TENANT_INFO_KEY, info);
  return info;
}

/** Holds the sign-in request behind every page; RequestSync fills it in. */
export function RequestProvider({ children }: { children: ReactNode }) {
  const [searchParams] = useSearchParams();
  const [value, setValue] = useState<RequestContextValue>(() => ({
    requestId: searchParams.get('requestId') ?? '',
    clientInfo: null,
    tenantInfo: null,
    status: 'checking',
  }));
  const [update] = useState(
    () => (change: RequestUpdate) => setValue((current) => ({ ...current, ...change })),
  );
  return (
    <RequestContext.Provider value={value}>
      <SetRequestContext.Provider value={update}>{children}</SetRequestContext.Provider>
    </RequestContext.Provider>
  );
}

/**
 * The sign-in request behind every page (spec §2): the request id from the query (or the one this
 * tab already had), checked by reading its client info; without a usable one a fresh one from the
 * provider; and when none can be had, off to the customer's own /login (built from the registry) —
 * except on the pages that need none and for tenants flagged to skip it. Keeps subdomain and
 * requestId in the query string as the visitor moves on.
 *
 * It sits inside the page's Suspense boundary, so its effects start only once the page has
 * hydrated: an update reaching a page that is still hydrating would make React throw the
 * server's HTML away, and with it whatever the tenant had already typed.
 */
export function RequestSync() {
  const { cidaasBaseUrl } = useRuntimeConfig();
  const tenant = useTenant();
  const { pathname } = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const requestIdInUrl = searchParams.get('requestId') ?? '';
  const value = useContext(RequestContext);
  const setValue = useContext(SetRequestContext);

  useEffect(() => {
    let isCurrent = true;
    void tenantInfoOnce(cidaasBaseUrl).then((tenantInfo) => {
      if (isCurrent && tenantInfo) setValue({ tenantInfo });
    });
    return () => {
      isCurrent = false;
    };
  }, [cidaasBaseUrl, setValue]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per request id in the URL
  useEffect(() => {
    let isCurrent = true;
    async function settle() {
      const requestId = requestIdInUrl || rememberedRequestId();
      const clientInfo = requestId ? await clientInfoOnce(cidaasBaseUrl, requestId) : null;
      if (!isCurrent) return;
      if (clientInfo) {
        rememberRequestId(requestId);
        setValue({ requestId, clientInfo, status: 'ready' });
        return;
      }
      if (WITHOUT_REQUEST.includes(pathname) || generatedRequestIds.has(requestId)) {
        setValue({ requestId: requestIdInUrl, clientInfo: null, status: 'unavailable' });
        return;
      }
      const fresh = await generateRequestId(cidaasBaseUrl, {
        client_id: tenant.clientId,
        redirect_uri: tenant.loginRedirectUri,
      });
      if (!isCurrent) return;
      if (fresh) {
        // The URL takes the fresh id; this effect then runs again for it and reads its client info.
        generatedRequestIds.add(fresh);
        setSearchParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.set('requestId', fresh);
            return next;
          },
          { replace: true },
        );
      } else if (tenant.flags.skipFreshRequestIdRedirect) {
        setValue({ requestId: requestIdInUrl, clientInfo: null, status: 'unavailable' });
      } else {
        assignLocation(`${tenant.portalUrl}/login`);
      }
    }
    void settle();
    return () => {
      isCurrent = false;
    };
  }, [requestIdInUrl]);

  // Query sync: subdomain and requestId are appended when missing (spec §2); a subdomain the
  // registry does not know is dropped, so that it travels no further.
  useEffect(() => {
    const missingSubdomain = tenant.isRequested && !searchParams.has('subdomain');
    const unknownSubdomain = !tenant.isRequested && searchParams.has('subdomain');
    const missingRequestId = value.requestId !== '' && !searchParams.has('requestId');
    if (!missingSubdomain && !unknownSubdomain && !missingRequestId) return;
    const next = new URLSearchParams(searchParams);
    if (missingSubdomain) next.set('subdomain', tenant.subdomain);
    if (unknownSubdomain) next.delete('subdomain');
    if (missingRequestId) next.set('requestId', value.requestId);
    setSearchParams(next, { replace: true });
  }, [searchParams, setSearchParams, tenant, value.requestId]);

  return null;
}

export function useRequestContext(): RequestContextValue {
  return useContext(RequestContext);
}

/**
 * spec §4: registration is enabled by client info, or by invite_enabled with an invite id. A flag the
 * provider's client info does not carry (cidaas carries neither) comes from the tenant registry.
 */
export function isRegistrationEnabled(
  clientInfo: ClientInfo | null,
  tenantFlags: Pick<TenantFlags, 'registrationEnabled' | 'inviteEnabled'>,
  inviteId: string | null,
): boolean {
  const registrationEnabled = clientInfo?.registration_enabled ?? tenantFlags.registrationEnabled;
  const inviteEnabled = clientInfo?.invite_enabled ?? tenantFlags.inviteEnabled;
  return registrationEnabled || (inviteEnabled && Boolean(inviteId));
}
