import { Alert, Anchor } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useConsoleState } from '../app/console-state-context';
import { paths } from '../app/paths';
import { formatTime } from '../i18n/format';
import { useTranslation } from '../i18n/use-translation';

/** How long before the session ends the notice appears: time to save what is being edited. */
const WARNING_MS = 2 * 60 * 1000;

type Phase = 'running' | 'ending' | 'ended';

/**
 * A notice, not a dialog, shortly before the session ends and once it has: nothing is in the way,
 * and whoever is typing learns it before their post is refused. Only the script can tell the time;
 * a page without it shows nothing.
 */
export function SessionNotice() {
  const { t, language } = useTranslation();
  const { sessionEndsAt } = useConsoleState();
  const [phase, setPhase] = useState<Phase>('running');
  useEffect(() => {
    const endsAt = sessionEndsAt ? Date.parse(sessionEndsAt) : Number.NaN;
    if (Number.isNaN(endsAt)) return;
    const at = (time: number, next: Phase) =>
      setTimeout(() => setPhase(next), Math.max(0, time - Date.now()));
    const timers = [at(endsAt - WARNING_MS, 'ending'), at(endsAt, 'ended')];
    return () => timers.forEach(clearTimeout);
  }, [sessionEndsAt]);
  if (phase === 'running' || !sessionEndsAt) return null;
  return (
    <Alert color="yellow" role="alert" className="session-notice">
      {phase === 'ending' ? (
        t('common.sessionEnding', { time: formatTime(sessionEndsAt, language) })
      ) : (
        <>
          {t('common.sessionEnded')} <Anchor href={paths.signIn(language)}>{t('common.signInAgain')}</Anchor>
        </>
      )}
    </Alert>
  );
}
