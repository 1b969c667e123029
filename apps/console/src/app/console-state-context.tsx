import type { ConsolePageState } from '@concierge/contracts';
import { createContext, type ReactNode, useContext } from 'react';

const ConsoleStateContext = createContext<ConsolePageState | null>(null);

export function ConsoleStateProvider({ state, children }: { state: ConsolePageState; children: ReactNode }) {
  return <ConsoleStateContext value={state}>{children}</ConsoleStateContext>;
}

/** What the server rendered the page with: who is signed in, their tenants, the form token, the flash. */
export function useConsoleState(): ConsolePageState {
  const state = useContext(ConsoleStateContext);
  if (!state) throw new Error('useConsoleState outside ConsoleStateProvider (app/Root.tsx)');
  return state;
}

/** A tenant's name for the navigation and the tables; its subdomain when the list lacks it. */
export function useTenantName(): (subdomain: string) => string {
  const { tenants } = useConsoleState();
  return (subdomain) => tenants.find((tenant) => tenant.subdomain === subdomain)?.displayName ?? subdomain;
}
