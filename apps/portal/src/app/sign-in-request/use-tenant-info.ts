import type { TenantInfo } from '@concierge/contracts';
import { useEffect } from 'react';
import { fetchTenantInfo } from '../../api/provider';
import { useRuntimeConfig } from '../../config/runtime-config';
import { cachedJson, cacheJson } from '../session-params';
import { useRequestStore } from './RequestContext';

const TENANT_INFO_KEY = 'tenant-info';

async function tenantInfoOnce(baseUrl: string): Promise<TenantInfo | null> {
  const cached = cachedJson<TenantInfo>(TENANT_INFO_KEY);
  if (cached) return cached;
  const info = await fetchTenantInfo(baseUrl);
  if (info) cacheJson(TENANT_INFO_KEY, info);
  return info;
}

/** spec §3: tenant info, read once and cached; the server usually rendered the page with it. */
export function useTenantInfo(): void {
  const { cidaasBaseUrl } = useRuntimeConfig();
  const { tenantInfo, setTenantInfo } = useRequestStore();
  const isKnown = tenantInfo !== null;
  useEffect(() => {
    if (isKnown) return;
    let isCurrent = true;
    void tenantInfoOnce(cidaasBaseUrl).then((info) => {
      if (isCurrent && info) setTenantInfo(info);
    });
    return () => {
      isCurrent = false;
    };
  }, [cidaasBaseUrl, isKnown, setTenantInfo]);
}
