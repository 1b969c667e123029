import type { MouseEvent } from 'react';
import { fieldId, type PortalFormState } from '../hooks/use-portal-form';
import { useTranslation } from '../i18n/use-translation';

const TITLE_ID = 'error-summary-title';

/**
 * The error summary at the top of a form sent with errors (issue 25, as GOV.UK's): a heading, then
 * one link per error to its field, in the words shown at the field. It takes the focus — by the
 * script after a submit, by `autofocus` when the server rendered it for a form sent without
 * JavaScript — so a screen reader reads it first.
 */
export function ErrorSummary({ summary }: { summary: PortalFormState['summary'] }) {
  const { t } = useTranslation();
  if (summary.errors.length === 0) return null;
  return (
    <div
      ref={summary.ref}
      role="alert"
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: the answer to a form sent without JavaScript takes the focus, as the script gives it
      autoFocus={summary.isFromServer}
      aria-labelledby={TITLE_ID}
      className="error-summary"
    >
      <h2 id={TITLE_ID} className="error-summary-title">
        {t('common.errorSummary')}
      </h2>
      <ul className="error-summary-list">
        {summary.errors.map(({ name, message }) => (
          <li key={name}>
            <a href={`#${fieldId(name)}`} onClick={focusField}>
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The link's field takes the focus (the browser would only scroll to it), its label in view. */
function focusField(event: MouseEvent<HTMLAnchorElement>) {
  const field = document.getElementById(event.currentTarget.hash.slice(1));
  if (!field) return;
  event.preventDefault();
  field.focus({ preventScroll: true });
  (field.closest('.mantine-InputWrapper-root') ?? field).scrollIntoView?.({ block: 'start' });
}
