import { Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Layout } from '../../app/Layout';
import { ErrorMessage, SuccessMessage } from '../../components/Feedback';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { usePortalLoginUrl } from '../../hooks/use-portal-login-url';
import { useTranslation } from '../../i18n/use-translation';
import { ActivationStatus, useVerification } from './use-verification';

export default function VerificationCompletePage() {
  const { t } = useTranslation();
  const { status, errorKey } = useVerification();
  // The outcome of an activation that ran in the browser replaces the "activating" line after the
  // page is live: it takes the focus, so that screen readers read it out (a live region that appears
  // with its text is not reliably announced). An incomplete link's error is there from the start.
  const [isOutcomeAwaited] = useState(status !== ActivationStatus.ERROR);
  const loginUrl = usePortalLoginUrl();
  // The used verification id stays behind; the e-mail prefills the resend form.
  const resendLink = useLinkWithQuery('/resend-account-activation-email', { omit: ['verificationid'] });
  const toLogin = (
    <Button component="a" href={loginUrl} fullWidth>
      {t('verification.toLogin')}
    </Button>
  );
  return (
    <Layout title={t('verification.title')}>
      {(status === ActivationStatus.INIT || status === ActivationStatus.ACTIVATING) && (
        <Group role="status" gap="sm" wrap="nowrap">
          <Loader size="sm" aria-hidden />
          <Text>{t('verification.activating')}</Text>
        </Group>
      )}
      {status === ActivationStatus.SUCCESSFULLY_ACTIVATED && (
        <Stack gap="lg">
          <SuccessMessage focusOnMount={isOutcomeAwaited}>
            {t('verification.successfullyActivated')}
          </SuccessMessage>
          {toLogin}
        </Stack>
      )}
      {status === ActivationStatus.ALREADY_ACTICATED && (
        <Stack gap="lg">
          <SuccessMessage focusOnMount={isOutcomeAwaited}>
            {t('verification.alreadyActivated')}
          </SuccessMessage>
          {toLogin}
        </Stack>
      )}
      {status === ActivationStatus.ERROR && (
        <Stack gap="lg">
          <ErrorMessage focusOnMount={isOutcomeAwaited}>
            {t(errorKey ?? 'verification.error.default')}
          </ErrorMessage>
          <Anchor component={Link} to={resendLink}>
            {t('verification.requestNewEmail')}
          </Anchor>
          {toLogin}
        </Stack>
      )}
    </Layout>
  );
}
