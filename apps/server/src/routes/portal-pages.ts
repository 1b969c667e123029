import {
  type FormOutcome,
  failure,
  isLanguage,
  type PageNotice,
  PORTAL_FORMS,
  type PortalPageState,
} from '@concierge/contracts';
import { noteForLog } from '@concierge/observability';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendCompressed, sendFilledIn } from '../http/compressed-answer';
import { allowFramingBySameOrigin } from '../http/security-headers';
import { renderDocument } from '../ssr/document';
import {
  type PageStateContext,
  pageStateFor,
  pageStateWithTenant,
  SIGN_IN_REQUEST_ROUTE,
} from '../ssr/page-state';
import { FORM_TOKEN_STAND_IN, type KeptPage, pageTemplateFor, withValues } from '../ssr/page-templates';
import { type BrandPreviews, previewTenant } from '../tenants/brand-preview';

/** What renders a page: its state's parts, and the console's previews of a tenant's brand draft. */
export interface PortalPagesContext extends PageStateContext {
  brandPreviews?: BrandPreviews;
}

/**
 * Pages whose URL carries a one-time token (reset ids, verification id): no cache, shared or the
 * browser's own, may keep a copy of the page or of its URL. The others are revalidated.
 */
const NO_STORE_PAGES = new Set(['/password-set', '/verification-complete']);

/** Pages with a form: each carries its visitor's form token (http/form-tokens.ts). */
const FORM_PAGES = new Set(PORTAL_FORMS.map((form) => form.page));

/** A page that cannot be used now answers as a service would: try again after a while. */
const NOTICE_STATUS: Record<PageNotice, { status: number; retryAfterSeconds: number }> = {
  provider_unreachable: { status: 503, retryAfterSeconds: 30 },
  too_many_requests: { status: 429, retryAfterSeconds: 60 },
};

/** A page, or with `form` the page as the server's handling of its posted form left it. */
export async function renderPortalPage(
  context: PortalPagesContext,
  request: FastifyRequest,
  reply: FastifyReply,
  { form, status: givenStatus }: { form?: FormOutcome; status?: number } = {},
): Promise<FastifyReply> {
  const { build } = context;
  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  // A posted form is answered where it was posted: a redirect would lose it.
  const redirect = form
    ? null
    : build.bundle.pageRedirect(path, queryStart === -1 ? '' : request.url.slice(queryStart));
  if (redirect) return reply.redirect(redirect, 302);
  // A console session's preview of a brand draft (tenants/brand-preview.ts): framed by the console,
  // never kept, never stored; for anyone else `brandPreview` means nothing.
  const preview = form ? undefined : await context.brandPreviews?.previewFor(request, context.registry);
  const decision = await pageStateWithTenant(request, context);
  if (decision.refusedRequestId !== undefined) {
    // Another tenant's request id (issue 26): the same page without it, which gets its own.
    noteForLog(request, { outcome: 'request_id_of_another_tenant' });
    return reply.redirect(withoutRequestId(context, path, request.url.slice(path.length)), form ? 303 : 302);
  }
  if (decision.customerLogin !== undefined && !preview) {
    noteForLog(request, { outcome: 'no_sign_in_request' });
    return reply.header('cache-control', 'no-store').redirect(decision.customerLogin, form ? 303 : 302);
  }
  // A preview stays in its frame: without a sign-in request, the page as it shows having none.
  const pageState = decision.state ?? pageStateFor(request, context);
  const hasForm = FORM_PAGES.has(path);
  // What the page says on arrival about what its address brought (a withdrawn invitation).
  const outcome = form ?? (await context.arrivalOutcome?.(path, request.query as Record<string, unknown>));
  const state: PortalPageState = {
    ...pageState,
    ...(preview ? { tenant: previewTenant(pageState.tenant, preview) } : {}),
    ...(outcome ? { form: outcome } : {}),
    ...(hasForm ? { formToken: FORM_TOKEN_STAND_IN } : {}),
  };
  // Also a tenant recovered from the request id, which the query does not name.
  if (state.tenant.isRequested) noteForLog(request, { tenant: state.tenant.subdomain });
  const template = outcome || preview ? undefined : pageTemplateFor(request.url, state);
  // The token is this visitor's own: it goes in last, also into a kept page.
  const formToken = hasForm ? reply.generateCsrf() : undefined;
  let status: number;
  let send: () => Promise<FastifyReply>;
  if (template) {
    // The key names everything but the texts, which the path and the language decide (page-state.ts):
    // 1.6–1.7 KB of JSON for every arrival instead of the whole state's 4.7–12 KB.
    const key = `${template.url}\n${JSON.stringify({ ...template.state, messages: undefined })}`;
    const kept = await context.pageTemplates.page(key, () =>
      renderPageDocument(
        context,
        template.url,
        template.state,
        build.bundle.serialisePageState(template.state),
      ),
    );
    const values = new Map(template.values);
    if (formToken) values.set(FORM_TOKEN_STAND_IN, formToken);
    status = kept.status;
    const { gzip } = kept;
    send = gzip
      ? () => sendFilledIn(request, reply, gzip, values)
      : () => sendCompressed(request, reply, withValues(kept.html, values));
  } else {
    const page = await renderPageDocument(
      context,
      request.url,
      state,
      build.bundle.serialisePageState(state),
    );
    const html = formToken ? page.html.replaceAll(FORM_TOKEN_STAND_IN, formToken) : page.html;
    status = page.status;
    send = () => sendCompressed(request, reply, html);
  }
  let cacheControl = NO_STORE_PAGES.has(path) || outcome || preview ? 'no-store' : 'no-cache';
  // A form token or a sign-in request is this visitor's own: no shared cache may hand it on.
  if ((hasForm || state.signInRequest) && cacheControl === 'no-cache') cacheControl = 'private, no-cache';
  // Only a page that cannot do its job says so in its status; one that merely warns answers as usual.
  const noticeStatus =
    state.notice && context.build.bundle.needsSignInRequest(path) ? NOTICE_STATUS[state.notice] : undefined;
  if (noticeStatus) reply.header('retry-after', String(noticeStatus.retryAfterSeconds));
  if (preview) allowFramingBySameOrigin(reply);
  reply
    .status(givenStatus ?? noticeStatus?.status ?? status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', cacheControl)
    .header('vary', 'Accept-Language');
  return send();
}

/**
 * The page's own route (its path as the bundle lists it, so never `//host/…`) with the query less
 * its request id.
 */
function withoutRequestId({ build }: PageStateContext, path: string, search: string): string {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const route = build.bundle.routes.find((candidate) => candidate.path === normalised)?.path ?? '/login';
  const query = new URLSearchParams(search);
  query.delete('requestId');
  return query.size > 0 ? `${route}?${query}` : route;
}

/** One page as the portal renders it, in its document. */
export async function renderPageDocument(
  { build }: PageStateContext,
  url: string,
  state: PortalPageState,
  stateJson: string,
): Promise<KeptPage> {
  const page = await build.bundle.renderPage(url, state);
  const { stylesheetUrl } = state.tenant.design;
  const html = renderDocument({
    language: state.language,
    title: page.title,
    appHtml: page.html,
    stateJson,
    stateElementId: build.bundle.PAGE_STATE_ELEMENT_ID,
    entryScript: build.entryScript,
    startScript: build.startScript.source,
    // The tenant's stylesheet comes last so that it wins over the base styles.
    stylesheets: [...build.stylesheetsFor(page.pageSource), ...(stylesheetUrl ? [stylesheetUrl] : [])],
    headStyles: page.headStyles,
    preloads: build.preloadsFor(page.pageSource),
  });
  return { status: page.isNotFound ? 404 : 200, html };
}

export async function portalPageRoutes(app: FastifyInstance, context: PortalPagesContext) {
  // spec §2: "/" redirects to /login; the query string goes along.
  app.get('/', async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/login${query}`, 302);
  });
  // spec §2: the portal's routes, as its bundle lists them; the portal decides what each shows.
  for (const { path } of context.build.bundle.routes) {
    app.get(path, (request, reply) => renderPortalPage(context, request, reply));
  }
  // Texts of other pages, for navigation inside the browser: /messages/de?namespaces=register,terms
  // (`namespaces` repeated is read as one list: a query value may always come as several).
  app.get<{ Params: { language: string }; Querystring: { namespaces?: unknown } }>(
    '/messages/:language',
    async (request, reply) => {
      const { language } = request.params;
      const { namespaces } = request.query;
      const names = (Array.isArray(namespaces) ? namespaces : [namespaces])
        .flatMap((value) => (typeof value === 'string' ? value.split(',') : []))
        .filter(Boolean);
      const parts =
        isLanguage(language) && names.length > 0 && names.length <= 10
          ? context.build.bundle.messageParts(language, names)
          : null;
      if (!parts) return reply.status(404).send(failure(404, 'not_found', 'No such language or text part'));
      return reply.header('cache-control', 'public, max-age=300').send(parts);
    },
  );
  // A page open for a while asks whether its sign-in request still holds (another tab may have used
  // it); the answer is the request again, or a fresh one, or why there is none.
  app.get(SIGN_IN_REQUEST_ROUTE, async (request, reply) => {
    const { state } = await pageStateWithTenant(request, context);
    reply.header('cache-control', 'no-store');
    return reply.send(state ? { signInRequest: state.signInRequest, notice: state.notice } : {});
  });
  // The same state a rendered page carries, for a page that has to boot without it.
  app.get('/page-state.json', async (request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Language')
      .send(pageStateFor(request, context)),
  );
}
