import { type ClientInfo, readClientInfo, readTenantInfo, type TenantInfo } from '@concierge/contracts';
import type { ProviderHttp } from './provider-http';
import { answer, type ProviderResult, unknown } from './provider-result';

/**
 * spec §7 client info, `GET /public-srv/public/{requestId}`: what the hosted pages know of a sign-in
 * request. A refusal means the request id is unknown or expired (cidaas: 400).
 */
export async function fetchClientInfo(
  http: ProviderHttp,
  requestId: string,
): Promise<ProviderResult<ClientInfo>> {
  const result = await http.anonymous<unknown>({
    method: 'GET',
    operation: 'client_info',
    path: `/public-srv/public/${encodeURIComponent(requestId)}`,
  });
  if (result.kind !== 'answer') return result;
  const info = readClientInfo(result.data);
  return info ? answer(info) : unknown('client info answered without data');
}

/** spec §7 tenant info, `GET /public-srv/tenantinfo/basic`. */
export async function fetchTenantInfo(http: ProviderHttp): Promise<ProviderResult<TenantInfo>> {
  const result = await http.anonymous<unknown>({
    method: 'GET',
    operation: 'tenant_info',
    path: '/public-srv/tenantinfo/basic',
  });
  if (result.kind !== 'answer') return result;
  const info = readTenantInfo(result.data);
  return info ? answer(info) : unknown('tenant info answered without data');
}
