import type { Language } from '@concierge/contracts';
import { html, type SafeHtml } from '../html';

export function layout(language: Language, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/inbox.css">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.value;
}
