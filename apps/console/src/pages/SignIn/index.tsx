import type { ConsoleSignInReason } from '@concierge/contracts';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { paths } from '../../app/paths';
import { useTranslation } from '../../i18n/use-translation';

/** Why the page is shown: a plain notice for what the person did, an alert for what went wrong. */
const REASON_IS_PROBLEM: Record<ConsoleSignInReason, boolean> = {
  signed_out: false,
  expired: false,
  no_role: true,
  failed: true,
};

export default function SignInPage({ reason }: { reason: ConsoleSignInReason | null }) {
  const { t, language } = useTranslation();
  return (
    <Stack gap="md" className="narrow">
      {reason &&
        (REASON_IS_PROBLEM[reason] ? (
          <Alert color="red" role="alert">
            {t(`signIn.reason.${reason}`)}
          </Alert>
        ) : (
          <Alert color="blue" role="status">
            {t(`signIn.reason.${reason}`)}
          </Alert>
        ))}
      <Text>{t('signIn.text')}</Text>
      <div>
        <Button component="a" href={paths.signIn(language)}>
          {t('signIn.button')}
        </Button>
      </div>
    </Stack>
  );
}
