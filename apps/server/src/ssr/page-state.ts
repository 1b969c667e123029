import {
  type FormOutcome,
  languageOfTag,
  type PortalPageState,
  pickLanguage,
  type RuntimeConfig,
} from '@concierge/contracts';
import type { FastifyRequest } from 'fastify';
import type { SignInRequests } from '../tenants/sign-in-requests';
import type { TenantRegistry } from '../tenants/tenant-registry';
import type { PageSignInRequests } from './page-sign-in-request';
import type { PageTemplates } from './page-templates';
import type { PortalBuild } from './portal-bundle';

/**
 * A page that was open a while asks for its sign-in request again (another tab may have used it):
 * the request again, checked anew, or a fresh one (`path` names the page).
 */
export const SIGN_IN_REQUEST_ROUTE = '/sign-in-request.json';

export interface PageStateContext {
  build: PortalBuild;
  runtime: RuntimeConfig;
  registry: TenantRegistry;
  signInRequests: SignInRequests;
  pageSignInRequests: PageSignInRequests;
  pageTemplates: PageTemplates;
  /** What a page says on arrival about what its address brought, as if its form had been answered. */
  arrivalOutcome?(path: string, query: Record<string, unknown>): Promise<FormOutcome | undefined>;
  /** Counts a fresh sign-in request against a visitor's address: false beyond its limit. */
  mayObtainFreshRequest(ip: string): boolean;
}

/** The answers about a page rather than pages: each is for the page named by its `path` parameter. */
const STATE_ROUTES = new Set(['/page-state.json', SIGN_IN_REQUEST_ROUTE]);

/** The page a request is about: its own path, or the `path` of a state route (the page that asks). */
function pagePathOf(request: FastifyRequest): string {
  const pathname = request.url.split('?', 1)[0]!;
  if (!STATE_ROUTES.has(pathname)) return pathname;
  const { path } = request.query as Record<string, unknown>;
  return typeof path === 'string' && path.startsWith('/') ? path : '/login';
}

/**
 * Everything a page is rendered with, decided on the server: the tenant from the registry (spec §1:
 * subdomain, else host, else the environment's default), the environment that goes with it, and the
 * browser's language. `recoveredSubdomain` is the tenant found for the page's request id when the
 * query and host name none (tenantForPage).
 */
export function pageStateFor(
  request: FastifyRequest,
  { build, runtime, registry }: PageStateContext,
  recoveredSubdomain?: string,
): PortalPageState {
  const query = request.query as Record<string, unknown>;
  const tenant = registry.resolve({
    subdomain: recoveredSubdomain ?? query.subdomain,
    host: request.hostname,
    fallbackEnvironment: runtime.env,
  });
  // cidaas's hosted-page parameter `lang` (empty as cidaas sends it), or the page's language switcher:
  // a language tag in any case (`fr-CH`, `FR`) names its primary language.
  const language =
    (typeof query.lang === 'string' ? languageOfTag(query.lang) : undefined) ??
    pickLanguage(request.headers['accept-language']);
  return {
    config: { ...runtime, env: tenant.environment },
    tenant,
    language,
    messages: build.bundle.messagesFor(pagePathOf(request), language),
  };
}

/**
 * The state a page is rendered with; or, instead, where the visitor is sent: `refusedRequestId` when
 * the address's request id is not the page's tenant's (issue 26), so the page is loaded again without
 * it (routes/portal-pages.ts); `customerLogin` when the provider gives no request for the tenant
 * (spec §2).
 */
export type PageStateDecision =
  | { state: PortalPageState; refusedRequestId?: undefined; customerLogin?: undefined }
  | { state?: undefined; refusedRequestId: string; customerLogin?: undefined }
  | { state?: undefined; refusedRequestId?: undefined; customerLogin: string };

/**
 * The state a page is rendered with. The page's tenant, also after a failed sign-in: cidaas sends
 * the visitor back with the request id but without `subdomain`, so a request id seen before with a
 * tenant brings that tenant back; one seen now with a tenant is remembered for then, once the
 * provider has confirmed it. Pages that work with a sign-in request get the address's checked, or a
 * fresh one for the tenant (page-sign-in-request.ts); one of the address is shown only under a
 * tenant whose client it can belong to (TenantRegistry.isRequestOf): a page that names no tenant
 * takes the one its client info names; one that names another tenant does not get it.
 */
export async function pageStateWithTenant(
  request: FastifyRequest,
  context: PageStateContext,
): Promise<PageStateDecision> {
  const { requestId, error } = request.query as Record<string, unknown>;
  const { registry, pageSignInRequests } = context;
  const first = pageStateFor(request, context);
  const recovered = first.tenant.isRequested ? undefined : await context.signInRequests.tenantOf(requestId);
  let state = recovered ? pageStateFor(request, context, recovered) : first;
  const pathname = pagePathOf(request);
  if (!context.build.bundle.needsSignInRequest(pathname)) {
    return pageSignInRequests.isProviderKnownAway
      ? { state: { ...state, notice: 'provider_unreachable' } }
      : { state };
  }
  const [outcome, tenantInfo] = await Promise.all([
    pageSignInRequests.forPage({
      requestIdInUrl: requestId,
      // Sent back with an error, or asked again by the page itself: what was read before is not trusted.
      recheck: error !== undefined || pathname !== request.url.split('?', 1)[0],
      // The page's tenant; the environment's default if a reload of the registry just removed it.
      client: registry.signInClientOf(
        registry.bySubdomain(state.tenant.subdomain) ?? registry.defaultFor(state.tenant.environment),
      ),
      mayObtainFresh: () => context.mayObtainFreshRequest(request.ip),
    }),
    pageSignInRequests.tenantInfo(),
  ]);
  if (outcome.kind === 'unreachable')
    return { state: { ...state, tenantInfo, notice: 'provider_unreachable' } };
  if (outcome.kind === 'limited') return { state: { ...state, tenantInfo, notice: 'too_many_requests' } };
  if (outcome.kind === 'refused') {
    // spec §2: without a request, off to the customer's own /login, except for flagged tenants.
    return state.tenant.flags.skipFreshRequestIdRedirect
      ? { state: { ...state, tenantInfo } }
      : { customerLogin: `${state.tenant.portalUrl}/login` };
  }
  const signInRequest = outcome.request;
  if (!outcome.isFresh) {
    const named = registry.tenantsNamedBy(signInRequest.clientInfo);
    if (!state.tenant.isRequested && named.length === 1) {
      state = pageStateFor(request, context, named[0]!.subdomain);
    }
    const entry = registry.bySubdomain(state.tenant.subdomain);
    if (!entry || !registry.isRequestOf(entry, signInRequest.clientInfo)) {
      return { refusedRequestId: signInRequest.requestId };
    }
  }
  // Only a request id the provider confirmed is written down (tenants/sign-in-requests.ts); a fresh
  // one is the page's tenant's by its making. It only brings the brand back after a failed sign-in
  // (which finds it by the client too), so a page is not refused for it while the database is away.
  if (state.tenant.isRequested || outcome.isFresh) {
    await context.signInRequests.remember(signInRequest, state.tenant.subdomain).catch((error: unknown) => {
      request.log.warn({ err: error }, 'the sign-in request could not be written down');
    });
  }
  return { state: { ...state, signInRequest, tenantInfo } };
}
