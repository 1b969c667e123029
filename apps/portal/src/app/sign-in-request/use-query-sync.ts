import { useEffect } from 'react';
import { useSearchParams } from 'wouter';
import { useTenant } from '../../config/tenant';
import { useRequestContext } from './RequestContext';

/**
 * spec §2: subdomain and requestId stay in the address as the visitor moves on. A missing subdomain
 * is added; one the registry does not know is dropped, so that it travels no further; the address
 * takes the request id the page was rendered with (a fresh one replaces a missing or expired one), so
 * that a reload or a second tab keeps it.
 */
export function useQuerySync(): void {
  const tenant = useTenant();
  const { requestId } = useRequestContext();
  const [searchParams, setSearchParams] = useSearchParams();

  useEffect(() => {
    const missingSubdomain = tenant.isRequested && !searchParams.has('subdomain');
    const unknownSubdomain = !tenant.isRequested && searchParams.has('subdomain');
    const otherRequestId = requestId !== '' && searchParams.get('requestId') !== requestId;
    if (!missingSubdomain && !unknownSubdomain && !otherRequestId) return;
    const next = new URLSearchParams(searchParams);
    if (missingSubdomain) next.set('subdomain', tenant.subdomain);
    if (unknownSubdomain) next.delete('subdomain');
    if (otherRequestId) next.set('requestId', requestId);
    setSearchParams(next, { replace: true });
  }, [searchParams, setSearchParams, tenant, requestId]);
}
