import { useTenant } from '../config/tenant';

/**
 * The customer's sign-in: the portal host from the registry (resolved by the server from
 * `subdomain` or the environment), never a host taken from the query (spec §2, architecture §5).
 */
export function usePortalLoginUrl(): string {
  return `${useTenant().portalUrl.replace(/\/+$/, '')}/login`;
}
