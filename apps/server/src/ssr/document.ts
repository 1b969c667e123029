import { escapeHtml, type Language } from '@concierge/contracts';

export interface DocumentParts {
  language: Language;
  title: string;
  appHtml: string;
  stateJson: string;
  stateElementId: string;
  entryScript: string;
  stylesheets: string[];
  preloads: string[];
}

/**
 * The page around the server-rendered app. No inline script: the state travels as a JSON data
 * block, the entry is an external module, and the page's chunks are preloaded so hydration does
 * not wait on a request waterfall.
 */
export function renderDocument(parts: DocumentParts): string {
  const links = [
    ...parts.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...parts.preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
  ].join('');
  return (
    `<!doctype html><html lang="${parts.language}" data-mantine-color-scheme="light"><head>` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">' +
    `<title>${escapeHtml(parts.title)}</title>${links}` +
    `<script type="module" src="${escapeHtml(parts.entryScript)}"></script>` +
    `</head><body><div id="root">${parts.appHtml}</div>` +
    `<script type="application/json" id="${parts.stateElementId}">${parts.stateJson}</script>` +
    '</body></html>'
  );
}
