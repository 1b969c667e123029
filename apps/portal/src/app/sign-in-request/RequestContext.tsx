import type { ClientInfo, PageSignInRequest, TenantFlags, TenantInfo } from '@concierge/contracts';
import {
  createContext,
  type Dispatch,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useSearchParams } from 'wouter';
import { type RequestEvent, type RequestState, requestReducer } from './request-state';

/** What the server rendered the page with (page-state.ts): the request it checked, and tenant info. */
export interface RequestSeed {
  signInRequest?: PageSignInRequest;
  tenantInfo?: TenantInfo;
}

const SeedContext = createContext<RequestSeed>({});

export function RequestSeedProvider({ seed, children }: { seed: RequestSeed; children: ReactNode }) {
  return <SeedContext.Provider value={seed}>{children}</SeedContext.Provider>;
}

interface RequestStore {
  state: RequestState;
  dispatch: Dispatch<RequestEvent>;
  tenantInfo: TenantInfo | null;
  setTenantInfo(info: TenantInfo): void;
  /** Resolves once the request is no longer being checked. */
  settled(): Promise<RequestState>;
}

const RequestStoreContext = createContext<RequestStore | null>(null);

function initialState(seed: RequestSeed, requestIdInUrl: string): RequestState {
  const seeded = seed.signInRequest;
  return seeded
    ? { status: 'ready', requestId: seeded.requestId, clientInfo: seeded.clientInfo }
    : { status: 'checking', requestId: requestIdInUrl };
}

/** Holds the sign-in request behind every page; RequestSync (beside it) settles it after hydration. */
export function RequestProvider({ children }: { children: ReactNode }) {
  const seed = useContext(SeedContext);
  const [searchParams] = useSearchParams();
  const [state, dispatch] = useReducer(requestReducer, undefined, () =>
    initialState(seed, searchParams.get('requestId') ?? ''),
  );
  const [tenantInfo, setTenantInfo] = useState<TenantInfo | null>(seed.tenantInfo ?? null);
  const waiting = useRef<((state: RequestState) => void)[]>([]);
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
    if (state.status === 'checking') return;
    for (const resolve of waiting.current.splice(0)) resolve(state);
  }, [state]);
  const store = useMemo<RequestStore>(
    () => ({
      state,
      dispatch,
      tenantInfo,
      setTenantInfo,
      settled: () =>
        latest.current.status === 'checking'
          ? new Promise((resolve) => waiting.current.push(resolve))
          : Promise.resolve(latest.current),
    }),
    [state, tenantInfo],
  );
  return <RequestStoreContext.Provider value={store}>{children}</RequestStoreContext.Provider>;
}

export function useRequestStore(): RequestStore {
  const store = useContext(RequestStoreContext);
  if (!store) throw new Error('useRequestStore outside RequestProvider');
  return store;
}

export interface RequestContextValue {
  /** The provider's request id the page works with ('' while none is known). */
  requestId: string;
  /** spec §3 client info of the request; null until it was read, or when it cannot be had. */
  clientInfo: ClientInfo | null;
  /** spec §3: the provider's tenant info, read once; null until known. */
  tenantInfo: TenantInfo | null;
  status: RequestState['status'];
  /** Resolves once the request is ready, unavailable or redirecting (at once when it is). */
  settled(): Promise<RequestState>;
}

export function useRequestContext(): RequestContextValue {
  const { state, tenantInfo, settled } = useRequestStore();
  return {
    requestId: state.requestId,
    clientInfo: state.status === 'ready' ? state.clientInfo : null,
    tenantInfo,
    status: state.status,
    settled,
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
