import { escapeHtml, type Language } from '@concierge/contracts';

export interface DocumentParts {
  language: Language;
  title: string;
  appHtml: string;
  stateJson: string;
  stateElementId: string;
  entryScript: string;
  stylesheets: string[];
  /** `<style>` elements the portal made (its theme's variables): after the stylesheets, so they win over them. */
  headStyles: string;
  preloads: string[];
}

/**
 * The page around the server-rendered app. No inline script: the state travels as a JSON data
 * block, the entry is an external module, and the page's chunks are preloaded so hydration does
 * not wait on a request waterfall. The page works before its scripts run, so they come at low
 * priority: on a slow connection the stylesheets and the logo get the bandwidth first, and the
 * first screen is painted as early as the markup alone allows (bench/page-speed.mjs).
 */
export function renderDocument(parts: DocumentParts): string {
  const links = [
    ...parts.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...parts.preloads.map(
      (href) => `<link rel="modulepreload" href="${escapeHtml(href)}" fetchpriority="low">`,
    ),
  ].join('');
  return (
    `<!doctype html><html lang="${parts.language}" data-mantine-color-scheme="light"><head>` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">' +
    `<title>${escapeHtml(parts.title)}</title>${links}${parts.headStyles}` +
    `<script type="module" src="${escapeHtml(parts.entryScript)}" fetchpriority="low"></script>` +
    `</head><body><div id="root">${parts.appHtml}</div>` +
    `<script type="application/json" id="${parts.stateElementId}">${parts.stateJson}</script>` +
    '</body></html>'
  );
}
