import { Alert } from '@mantine/core';
import { useConsoleState } from '../app/console-state-context';
import { errorText } from '../i18n/error-texts';
import { useTranslation } from '../i18n/use-translation';

/**
 * What the last post did, on the page it led to. It takes the focus when the page loads, so that a
 * screen reader reads the outcome first (a message already there on load is no live change).
 */
export function Flash() {
  const translator = useTranslation();
  const { t } = translator;
  const { flash } = useConsoleState();
  if (!flash) return null;
  if (flash.kind === 'error') {
    return (
      <Alert color="red" role="alert" tabIndex={-1} autoFocus className="flash">
        {errorText(translator, flash.code)}
      </Alert>
    );
  }
  const done = flash.done;
  const text =
    flash.count !== undefined &&
    (done === 'batch_created' || done === 'batch_revoked' || done === 'codes_revoked')
      ? t(`doneCount.${done}`, { count: flash.count })
      : t(`done.${done}`);
  return (
    <Alert color="green" role="status" tabIndex={-1} autoFocus className="flash">
      {text}
    </Alert>
  );
}
