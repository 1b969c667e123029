import type { Language } from '@concierge/contracts';
import { html } from '../html';
import type { CaughtMessage } from '../message-store';
import { TEXTS } from '../texts';
import { formatDate } from './format-date';
import { layout } from './layout';

export function renderInbox(messages: CaughtMessage[], language: Language): string {
  const t = TEXTS[language];
  const rows = messages.map(
    (message) => html`<tr>
<td>${formatDate(message.date, language)}</td>
<td>${message.from}</td>
<td>${message.to.join(', ')}</td>
<td><a href="/messages/${encodeURIComponent(message.id)}">${message.subject || t.noSubject}</a></td>
</tr>`,
  );
  const list =
    messages.length === 0
      ? html`<p>${t.empty}</p>`
      : html`<table>
<thead><tr><th scope="col">${t.date}</th><th scope="col">${t.from}</th><th scope="col">${t.to}</th><th scope="col">${t.subject}</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
  // The clear button is a plain form, so the page needs no script at all.
  return layout(
    language,
    t.title,
    html`<h1>${t.title}</h1>
<p>${t.intro}</p>
<div class="actions">
<a href="/">${t.refresh}</a>
<form method="post" action="/clear"><button type="submit">${t.clear}</button></form>
</div>
${list}`,
  );
}
