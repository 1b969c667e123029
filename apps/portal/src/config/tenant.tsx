import type { PortalTenant } from '@concierge/contracts';
import { createContext, type ReactNode, useContext } from 'react';

const TenantContext = createContext<PortalTenant | null>(null);

export function TenantProvider({ tenant, children }: { tenant: PortalTenant; children: ReactNode }) {
  return <TenantContext.Provider value={tenant}>{children}</TenantContext.Provider>;
}

export function useTenant(): PortalTenant {
  const tenant = useContext(TenantContext);
  if (!tenant) throw new Error('useTenant outside TenantProvider');
  return tenant;
}
