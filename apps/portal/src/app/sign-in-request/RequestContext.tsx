import type {
  ClientInfo,
  PageNotice,
  PageSignInRequest,
  TenantFlags,
  TenantInfo,
} from '@concierge/contracts';
import {
  createContext,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
  useContext,
  useMemo,
  useState,
} from 'react';

/**
 * What the server rendered the page with (ssr/page-state.ts): the sign-in request it checked or
 * obtained, the provider's tenant info, and a notice when the provider is away. The browser never
 * asks the provider for a request itself: a page that needs one and has none is loaded from the
 * server (components/PageLink.tsx), and a page the tenant comes back to asks the server again
 * (use-renew-request.ts).
 */
export interface RequestSeed {
  signInRequest?: PageSignInRequest;
  tenantInfo?: TenantInfo;
  notice?: PageNotice;
}

interface SeedStore {
  seed: RequestSeed;
  replaceSeed: Dispatch<SetStateAction<RequestSeed>>;
}

const SeedContext = createContext<SeedStore>({ seed: {}, replaceSeed: () => undefined });

export function RequestSeedProvider({ seed, children }: { seed: RequestSeed; children: ReactNode }) {
  const [current, replaceSeed] = useState(seed);
  const store = useMemo(() => ({ seed: current, replaceSeed }), [current]);
  return <SeedContext.Provider value={store}>{children}</SeedContext.Provider>;
}

/** Replaces what the page works with by the server's newer answer (use-renew-request.ts). */
export function useReplaceSeed(): SeedStore['replaceSeed'] {
  return useContext(SeedContext).replaceSeed;
}

export interface RequestContextValue {
  /** The provider's request id the page works with; '' when the page has none. */
  requestId: string;
  /** spec §3 client info of the request; null without one. */
  clientInfo: ClientInfo | null;
  /** spec §3: the provider's tenant info, as the server last read it; null when unknown. */
  tenantInfo: TenantInfo | null;
  /** Said above the page: the provider is away, or this address asked too often. */
  notice: PageNotice | null;
}

export function useRequestContext(): RequestContextValue {
  const { signInRequest, tenantInfo, notice } = useContext(SeedContext).seed;
  return {
    requestId: signInRequest?.requestId ?? '',
    clientInfo: signInRequest?.clientInfo ?? null,
    tenantInfo: tenantInfo ?? null,
    notice: notice ?? null,
  };
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
