import { Alert } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';
import { fieldId } from './form-problems';

export interface FieldProblem {
  field: string;
  label: string;
  message: string | undefined;
}

interface ErrorSummaryProps {
  /** The form's fields in their order; those without a message are left out. */
  problems: FieldProblem[];
  /** The whole form's problem, when the server named one. */
  formError?: string | undefined;
  /**
   * Whether it takes the focus when it appears: on a page the server rendered with the form sent
   * back, yes (read first); not while someone types into a form the script saves as they go.
   */
  takesFocus?: boolean;
}

/**
 * Above a form the server sent back: what is wrong, each problem a link to its field, in the words
 * shown at the field (as the portal's summary, GOV.UK's pattern).
 */
export function ErrorSummary({ problems, formError, takesFocus = true }: ErrorSummaryProps) {
  const { t } = useTranslation();
  const listed = problems.filter((problem) => problem.message !== undefined);
  if (listed.length === 0 && formError === undefined) return null;
  return (
    <Alert
      color="red"
      role="alert"
      tabIndex={-1}
      autoFocus={takesFocus}
      title={t('common.errorSummary')}
      className="error-summary"
    >
      {formError !== undefined && <p className="error-summary-form">{formError}</p>}
      {listed.length > 0 && (
        <ul className="error-summary-list">
          {listed.map(({ field, label, message }) => (
            <li key={field}>
              <a href={`#${fieldId(field)}`}>{t('common.fieldProblem', { label, message: message! })}</a>
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
