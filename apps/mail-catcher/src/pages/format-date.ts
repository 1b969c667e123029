import type { Language } from '@concierge/contracts';
import { html, type SafeHtml } from '../html';
import { DATE_LOCALES } from '../texts';

export function formatDate(iso: string, language: Language): SafeHtml {
  const shown = new Intl.DateTimeFormat(DATE_LOCALES[language], {
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(new Date(iso));
  return html`<time datetime="${iso}">${shown}</time>`;
}
