import { useEffect } from 'react';
import { useSearchParams } from 'wouter';
import { useTenant } from '../../config/tenant';
import { useRequestStore } from './RequestContext';

/**
 * spec §2: subdomain and requestId stay in the address as the visitor moves on. A missing subdomain
 * is added; one the registry does not know is dropped, so that it travels no further; the address
 * takes the request id the page works with once it is ready (a fresh one replaces an expired one).
 */
export function useQuerySync(): void {
  const tenant = useTenant();
  const { state } = useRequestStore();
  const [searchParams, setSearchParams] = useSearchParams();
  const readyRequestId = state.status === 'ready' ? state.requestId : '';

  useEffect(() => {
    const missingSubdomain = tenant.isRequested && !searchParams.has('subdomain');
    const unknownSubdomain = !tenant.isRequested && searchParams.has('subdomain');
    const otherRequestId = readyRequestId !== '' && searchParams.get('requestId') !== readyRequestId;
    if (!missingSubdomain && !unknownSubdomain && !otherRequestId) return;
    const next = new URLSearchParams(searchParams);
    if (missingSubdomain) next.set('subdomain', tenant.subdomain);
    if (unknownSubdomain) next.delete('subdomain');
    if (otherRequestId) next.set('requestId', readyRequestId);
    setSearchParams(next, { replace: true });
  }, [searchParams, setSearchParams, tenant, readyRequestId]);
}
