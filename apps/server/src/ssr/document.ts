import { escapeHtml, type Language } from '@concierge/contracts';

export interface DocumentParts {
  language: Language;
  title: string;
  appHtml: string;
  stateJson: string;
  stateElementId: string;
  entryScript: string;
  /** The script that starts the entry and preloads the page's chunks once the page has loaded: its source, inline. */
  startScript: string;
  stylesheets: string[];
  /** `<style>` elements the portal made (its theme's variables): after the stylesheets, so they win over them. */
  headStyles: string;
  preloads: string[];
}

/**
 * The page around the server-rendered app. The state travels as a JSON data block, and the one
 * script element is a small inline module (allowed by its hash in the CSP) that starts the portal's
 * scripts once the page has loaded (the portal's src/start-scripts.ts). The page works before they
 * run, so on a slow connection its stylesheets and logo get the bandwidth and the CPU alone, and the
 * first screen is painted as early as the markup allows (bench/page-speed.mjs): inline, the start
 * script is no request of its own before it. The entry and the page's chunks are named on that
 * element and preloaded together, so hydration waits on no chain of imports.
 */
export function renderDocument(parts: DocumentParts): string {
  const stylesheets = parts.stylesheets
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('');
  // Last: nothing of the first screen needs it. As a file, even at low priority, it was a request
  // Lighthouse's slow-4G estimate counted into the first paint.
  const start =
    `<script type="module" data-entry="${escapeHtml(parts.entryScript)}" ` +
    `data-preloads="${escapeHtml(parts.preloads.join(' '))}">${parts.startScript}</script>`;
  return (
    `<!doctype html><html lang="${parts.language}" data-mantine-color-scheme="light"><head>` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">' +
    `<title>${escapeHtml(parts.title)}</title>${stylesheets}${parts.headStyles}` +
    `</head><body><div id="root">${parts.appHtml}</div>` +
    `<script type="application/json" id="${parts.stateElementId}">${parts.stateJson}</script>${start}` +
    '</body></html>'
  );
}
