import { useLocation } from 'wouter';
import { matchPageRoute } from '../routes';
import { useQuerySync } from './use-query-sync';
import { useSettleRequest } from './use-settle-request';
import { useTenantInfo } from './use-tenant-info';

/** The sign-in request's effects, for the page being shown (see RequestContext.tsx). */
export function RequestSync() {
  const [pathname] = useLocation();
  useSettleRequest(matchPageRoute(pathname).needsSignInRequest);
  useTenantInfo();
  useQuerySync();
  return null;
}
