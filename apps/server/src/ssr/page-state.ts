import { languageOfTag, type PortalPageState, pickLanguage, type RuntimeConfig } from '@concierge/contracts';
import type { FastifyRequest } from 'fastify';
import type { SignInRequests } from '../tenants/sign-in-requests';
import type { TenantRegistry } from '../tenants/tenant-registry';
import type { PageSignInRequests } from './page-sign-in-request';
import type { PageTemplates } from './page-templates';
import type { PortalBuild } from './portal-bundle';

export interface PageStateContext {
  build: PortalBuild;
  runtime: RuntimeConfig;
  registry: TenantRegistry;
  signInRequests: SignInRequests;
  pageSignInRequests: PageSignInRequests;
  pageTemplates: PageTemplates;
}

/** /page-state.json answers for the page named by its `path` parameter (the page that asks). */
function pagePathOf(query: Record<string, unknown>): string {
  return typeof query.path === 'string' && query.path.startsWith('/') ? query.path : '/login';
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
  const pathname = request.url.split('?', 1)[0]!;
  return {
    config: { ...runtime, env: tenant.environment },
    tenant,
    language,
    messages: build.bundle.messagesFor(
      pathname === '/page-state.json' ? pagePathOf(query) : pathname,
      language,
    ),
  };
}

/**
 * The state a page is rendered with, or `refusedRequestId` when the address's request id is not the
 * page's tenant's (issue 26): the page is then loaded again without it (routes/portal-pages.ts).
 */
export type PageStateDecision =
  | { state: PortalPageState; refusedRequestId?: undefined }
  | { state?: undefined; refusedRequestId: string };

/**
 * The state a page is rendered with. The page's tenant, also after a failed sign-in: cidaas sends
 * the visitor back with the request id but without `subdomain`, so a request id seen before with a
 * tenant brings that tenant back; one seen now with a tenant is remembered for then, once the
 * provider has confirmed it. Pages that work with a sign-in request get it checked
 * (page-sign-in-request.ts), and shown only under a tenant whose client it can belong to
 * (TenantRegistry.isRequestOf): a page that names no tenant takes the one its client info names;
 * one that names another tenant does not get it.
 */
export async function pageStateWithTenant(
  request: FastifyRequest,
  context: PageStateContext,
): Promise<PageStateDecision> {
  const { requestId, error } = request.query as Record<string, unknown>;
  const first = pageStateFor(request, context);
  const recovered = first.tenant.isRequested ? undefined : await context.signInRequests.tenantOf(requestId);
  let state = recovered ? pageStateFor(request, context, recovered) : first;
  const pathname = request.url.split('?', 1)[0]!;
  if (!context.build.bundle.needsSignInRequest(pathname)) return { state };
  const [signInRequest, tenantInfo] = await Promise.all([
    context.pageSignInRequests.forPage(requestId, error !== undefined),
    context.pageSignInRequests.tenantInfo(),
  ]);
  if (signInRequest) {
    const { registry } = context;
    const named = registry.tenantsNamedBy(signInRequest.clientInfo);
    if (!state.tenant.isRequested && named.length === 1) {
      state = pageStateFor(request, context, named[0]!.subdomain);
    }
    const entry = registry.bySubdomain(state.tenant.subdomain)!;
    if (!registry.isRequestOf(entry, signInRequest.clientInfo)) {
      return { refusedRequestId: signInRequest.requestId };
    }
  }
  // Only a request id the provider confirmed is written down (tenants/sign-in-requests.ts).
  if (signInRequest && state.tenant.isRequested) {
    await context.signInRequests.remember(signInRequest, state.tenant.subdomain);
  }
  return { state: { ...state, signInRequest, tenantInfo } };
}
