import { type ClientInfo, isRequestOfClient } from '@concierge/contracts';
import { useEffect, useRef } from 'react';
import { fetchClientInfo, generateRequestId } from '../../api/provider';
import { useRuntimeConfig } from '../../config/runtime-config';
import { useTenant } from '../../config/tenant';
import { assignLocation } from '../../hooks/browser-location';
import { cachedJson, cacheJson, rememberedRequestId, rememberRequestId } from '../session-params';
import { useRequestStore } from './RequestContext';

async function clientInfoOnce(baseUrl: string, requestId: string): Promise<ClientInfo | null> {
  const cached = cachedJson<ClientInfo>(requestId);
  if (cached) return cached;
  const info = await fetchClientInfo(baseUrl, requestId);
  if (info) cacheJson(requestId, info);
  return info;
}

/**
 * Settles a request that is being checked (spec §2): the request id of the address (or the one this
 * tab last had for this tenant) if the provider still knows it; else a fresh one for the tenant's
 * client; and when none can be had, off to the customer's own /login (built from the registry) —
 * except on pages that need no request and for tenants flagged to skip it. A page the server
 * rendered with a checked request has nothing to settle.
 *
 * It runs inside the page's Suspense boundary, so only once the page has hydrated: an update
 * reaching a page that is still hydrating would make React throw the server's HTML away, and with
 * it whatever the tenant had already typed.
 */
export function useSettleRequest(needsSignInRequest: boolean): void {
  const { cidaasBaseUrl } = useRuntimeConfig();
  const tenant = useTenant();
  const { state, dispatch } = useRequestStore();

  useEffect(() => {
    if (state.status !== 'checking') return;
    let isCurrent = true;
    async function settle() {
      const candidate = state.requestId || rememberedRequestId(tenant.subdomain);
      const info = candidate ? await clientInfoOnce(cidaasBaseUrl, candidate) : null;
      if (!isCurrent) return;
      // Another tenant's client's request is not this page's (issue 26; the server checks more).
      if (info && isRequestOfClient(info, tenant) !== false) {
        rememberRequestId(tenant.subdomain, candidate);
        dispatch({ type: 'checked', requestId: candidate, clientInfo: info });
        return;
      }
      if (!needsSignInRequest) {
        dispatch({ type: 'unavailable' });
        return;
      }
      const fresh = await generateRequestId(cidaasBaseUrl, {
        client_id: tenant.clientId,
        redirect_uri: tenant.loginRedirectUri,
      });
      const freshInfo = fresh ? await clientInfoOnce(cidaasBaseUrl, fresh) : null;
      if (!isCurrent) return;
      if (fresh && freshInfo) {
        rememberRequestId(tenant.subdomain, fresh);
        dispatch({ type: 'checked', requestId: fresh, clientInfo: freshInfo });
      } else if (tenant.flags.skipFreshRequestIdRedirect) {
        dispatch({ type: 'unavailable' });
      } else {
        dispatch({ type: 'redirecting' });
        assignLocation(`${tenant.portalUrl}/login`);
      }
    }
    void settle();
    return () => {
      isCurrent = false;
    };
  }, [state.status, state.requestId, needsSignInRequest, cidaasBaseUrl, tenant, dispatch]);

  // A page that needs a request, reached from one that did without (e.g. from /password-set-success
  // to /login inside the browser), tries once more: only on the way onto such a page, so a request
  // that stays unavailable there is not asked for again and again.
  const current = useRef(state);
  useEffect(() => {
    current.current = state;
  });
  useEffect(() => {
    const { status, requestId } = current.current;
    if (needsSignInRequest && status === 'unavailable') dispatch({ type: 'check', requestId });
  }, [needsSignInRequest, dispatch]);

  // A server-rendered request is this tab's request for the tenant from now on.
  useEffect(() => {
    if (state.status === 'ready') rememberRequestId(tenant.subdomain, state.requestId);
  }, [state, tenant.subdomain]);
}
