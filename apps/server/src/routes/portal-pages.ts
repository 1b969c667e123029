import { pickLanguage, type RuntimeConfig } from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderDocument } from '../ssr/document';
import type { PortalBuild } from '../ssr/portal-bundle';

// spec §2: the portal's routes; the server renders them all, the portal decides what each shows.
export const PORTAL_ROUTES = [
  '/login',
  '/register',
  '/verification-complete',
  '/password-reset-init',
  '/password-set',
  '/password-set-success',
  '/resend-account-activation-email',
];

export async function renderPortalPage(
  build: PortalBuild,
  runtime: RuntimeConfig,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const language = pickLanguage(request.headers['accept-language']);
  const state = { config: runtime, language, messages: build.bundle.locales[language] };
  const page = await build.bundle.renderPage(request.url, state);
  const html = renderDocument({
    language,
    title: page.title,
    appHtml: page.html,
    stateJson: build.bundle.serialisePageState(state),
    stateElementId: build.bundle.PAGE_STATE_ELEMENT_ID,
    entryScript: build.entryScript,
    stylesheets: build.stylesheets,
    preloads: build.preloadsFor(page.pageSource),
  });
  return reply
    .status(page.isNotFound ? 404 : 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'Accept-Language')
    .send(html);
}

export async function portalPageRoutes(
  app: FastifyInstance,
  options: { build: PortalBuild; runtime: RuntimeConfig },
) {
  const { build, runtime } = options;
  // spec §2: "/" redirects to /login; the query string goes along.
  app.get('/', async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/login${query}`, 302);
  });
  for (const path of PORTAL_ROUTES) {
    app.get(path, (request, reply) => renderPortalPage(build, runtime, request, reply));
  }
  app.get<{ Params: { language: string } }>('/locales/:language', async (request, reply) => {
    const language = request.params.language.replace(/\.json$/, '');
    const messages = build.bundle.locales[language as keyof typeof build.bundle.locales];
    if (!messages) return reply.callNotFound();
    return reply.header('cache-control', 'public, max-age=300').send(messages);
  });
}
