import { escapeHtml, type Language } from '@concierge/contracts';
import type { FastifyRequest } from 'fastify';
import { type PageStateContext, pageStateFor } from './page-state';

/**
 * Why the page could not be rendered: its database is away (`unavailable`, 503), or its rendering
 * failed (`failed`, 500, with the reference number the log line carries).
 */
export type ErrorPageKind = 'unavailable' | 'failed';

interface ErrorTexts {
  title: string;
  message: string;
  retry: string;
}

// The pages the portal cannot render: a few words in each language of the portal, here rather than
// in the portal's dictionaries because they are written by the server alone.
const TEXTS: Record<ErrorPageKind, Record<Language, ErrorTexts>> = {
  failed: {
    de: {
      title: 'Ein Fehler ist aufgetreten',
      message:
        'Die Seite konnte nicht angezeigt werden. Bitte versuchen Sie es erneut. Falls das Problem bestehen bleibt, wenden Sie sich bitte an Ihre Verwaltung und nennen Sie diese Referenznummer:',
      retry: 'Erneut versuchen',
    },
    en: {
      title: 'Something went wrong',
      message:
        'The page could not be shown. Please try again. If the problem persists, please contact your property manager and quote this reference number:',
      retry: 'Try again',
    },
    fr: {
      title: 'Une erreur s’est produite',
      message:
        'La page n’a pas pu être affichée. Veuillez réessayer. Si le problème persiste, veuillez vous adresser à votre gérance en indiquant ce numéro de référence :',
      retry: 'Réessayer',
    },
    it: {
      title: 'Si è verificato un errore',
      message:
        'Non è stato possibile visualizzare la pagina. Riprovate. Se il problema persiste, rivolgetevi alla vostra amministrazione indicando questo numero di riferimento:',
      retry: 'Riprovare',
    },
  },
  unavailable: {
    de: {
      title: 'Vorübergehend nicht verfügbar',
      message:
        'Das Portal ist im Moment nicht erreichbar. Bitte versuchen Sie es später erneut. Ihre Daten sind davon nicht betroffen.',
      retry: 'Erneut versuchen',
    },
    en: {
      title: 'Temporarily unavailable',
      message: 'The portal cannot be reached just now. Please try again later. Your data is not affected.',
      retry: 'Try again',
    },
    fr: {
      title: 'Temporairement indisponible',
      message:
        'Le portail n’est pas accessible pour le moment. Veuillez réessayer plus tard. Vos données ne sont pas concernées.',
      retry: 'Réessayer',
    },
    it: {
      title: 'Temporaneamente non disponibile',
      message:
        'Il portale non è raggiungibile in questo momento. Riprovate più tardi. I vostri dati sono al sicuro.',
      // As the portal's buttons: the infinitive (docs/glossary.md).
      retry: 'Riprovare',
    },
  },
};

/**
 * A browser asking for a page, or sending a page's form without JavaScript (issue 25): it shows
 * what it gets (the not-found handler and the 503 answer ask the same).
 */
export function wantsPage(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'POST') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * "Try again" in the tenant's brand and the visitor's language, for a page whose rendering needed
 * the database while it could not be reached, or whose rendering failed. Written here, without the
 * portal's bundle and without script, so that it shows whatever broke there: the tenant and the
 * language come from the registry and the request alone (pageStateFor reads no database), the look
 * from the tenant's colours, logo and stylesheet, which the server serves from memory and files.
 * The retry link is the same address again.
 */
export function renderErrorPage(
  request: FastifyRequest,
  context: PageStateContext,
  kind: ErrorPageKind,
  referenceNumber?: string,
): string {
  const { tenant, language } = pageStateFor(request, context);
  const { design } = tenant;
  const texts = TEXTS[kind][language];
  const filled = design.primaryShades[design.primaryShade] ?? design.primaryColor;
  const style = [
    'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#212529}',
    '.layout{min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:1rem;background:#f8f9fa;box-sizing:border-box}',
    `.layout-card{width:100%;max-width:30rem;background:#fff;border-radius:0.25rem;box-shadow:0 1px 3px rgba(0,0,0,.1);border-top:4px solid ${filled};padding:1.25rem;box-sizing:border-box}`,
    '.layout-header{display:flex;flex-direction:column;align-items:center;gap:0.75rem;text-align:center}',
    '.layout-logo{width:250px;height:250px;max-width:60vw;max-height:60vw;object-fit:contain}',
    'h1{font-size:1.5rem;margin:0}',
    '.reference{margin:0;overflow-wrap:anywhere}',
    `.retry{display:inline-block;margin-top:0.5rem;padding:0.5rem 1.25rem;border-radius:0.25rem;background:${filled};color:${design.primaryContrastText};text-decoration:none;font-weight:600}`,
    `.retry:focus-visible{outline:3px solid ${design.focusRingColor};outline-offset:2px}`,
  ].join('');
  // The tenant's stylesheet last, as on every page, so that its rules for the layout win.
  const tenantStylesheet = design.stylesheetUrl
    ? `<link rel="stylesheet" href="${escapeHtml(design.stylesheetUrl)}">`
    : '';
  return (
    `<!doctype html><html lang="${language}"><head>` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">' +
    `<title>${escapeHtml(texts.title)} – ${escapeHtml(tenant.displayName)}</title>` +
    `<style>${style}</style>${tenantStylesheet}</head>` +
    `<body><main class="layout"><div class="layout-card"><div class="layout-header">` +
    `<img class="layout-logo" src="${escapeHtml(design.logoUrl)}" alt="${escapeHtml(tenant.displayName)}">` +
    `<h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(texts.message)}</p>` +
    (referenceNumber ? `<p class="reference"><code>${escapeHtml(referenceNumber)}</code></p>` : '') +
    `<a class="retry" href="${escapeHtml(sameAddress(request.url))}">${escapeHtml(texts.retry)}</a>` +
    '</div></div></main></body></html>'
  );
}

/**
 * The request's own path and query as a link: one leading slash, since a browser reads `//host/…`
 * and `/\host/…` as another site.
 */
function sameAddress(url: string): string {
  return url.replace(/^[/\\]+/, '/');
}
