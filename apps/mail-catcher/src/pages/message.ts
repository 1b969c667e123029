import type { Language } from '@concierge/contracts';
import { html, type SafeHtml } from '../html';
import type { CaughtMessage } from '../message-store';
import { TEXTS } from '../texts';
import { formatDate } from './format-date';
import { layout } from './layout';

// No allow-scripts and no allow-same-origin: the mail's HTML renders in an opaque origin and cannot
// touch this page. Links open in a new tab because a mail's target site may refuse to be framed.
const FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

function section(title: string, content: SafeHtml | false, none: string): SafeHtml {
  return html`<section>
<h2>${title}</h2>
${content || html`<p>${none}</p>`}
</section>`;
}

export function renderMessage(message: CaughtMessage, language: Language): string {
  const t = TEXTS[language];
  const subject = message.subject || t.noSubject;
  const links =
    message.links.length > 0 &&
    html`<ul>${message.links.map((link) => html`<li><a href="${link}" target="_blank" rel="noreferrer noopener">${link}</a></li>`)}</ul>`;
  const text = message.text !== '' && html`<pre>${message.text}</pre>`;
  // srcdoc is an attribute: the template escapes the whole document, the browser parses it inside the frame.
  const htmlPart =
    message.html !== '' &&
    html`<iframe sandbox="${FRAME_SANDBOX}" title="${t.htmlFrameTitle}" srcdoc="${`<base target="_blank">${message.html}`}"></iframe>`;
  return layout(
    language,
    `${subject} – ${t.title}`,
    html`<p><a href="/">${t.back}</a></p>
<h1>${subject}</h1>
<dl>
<dt>${t.date}</dt><dd>${formatDate(message.date, language)}</dd>
<dt>${t.from}</dt><dd>${message.from}</dd>
<dt>${t.to}</dt><dd>${message.to.join(', ')}</dd>
</dl>
${section(t.links, links, t.none)}
${section(t.textPart, text, t.none)}
${section(t.htmlPart, htmlPart, t.none)}`,
  );
}

export function renderMessageNotFound(language: Language): string {
  const t = TEXTS[language];
  return layout(language, t.title, html`<p><a href="/">${t.back}</a></p><p>${t.notFound}</p>`);
}
