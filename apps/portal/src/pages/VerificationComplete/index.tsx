import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Layout } from '../../app/Layout';
import { ErrorMessage, SuccessMessage } from '../../components/Feedback';
import { PageForm } from '../../components/PageForm';
import { PageLink } from '../../components/PageLink';
import { useErrorText } from '../../config/durations';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { usePortalLoginUrl } from '../../hooks/use-portal-login-url';
import { useTranslation } from '../../i18n/use-translation';
import { ActivationStatus, useVerification } from './use-verification';

export default function VerificationCompletePage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const verification = useVerification();
  const { status, errorKey } = verification;
  // The outcome of an activation replaces the button after the page is live, or comes with the page
  // when the button was pressed without JavaScript: either way it takes the focus, so that screen
  // readers read it out. An incomplete link's error is there from the start.
  const [isOutcomeAwaited] = useState(status !== ActivationStatus.ERROR || verification.isPosted);
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
      {status === ActivationStatus.INIT && (
        <PageForm form={verification.form} submit={{ onSubmit: verification.onSubmit }}>
          <input type="hidden" name="email" value={verification.email} />
          <input type="hidden" name="verificationid" value={verification.verificationId} />
          <Text>{t('verification.confirm')}</Text>
          <Button type="submit" fullWidth>
            {t('verification.activate')}
          </Button>
        </PageForm>
      )}
      {status === ActivationStatus.ACTIVATING && (
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
            {errorText(errorKey ?? 'verification.error.default', verification.retryAfterSeconds)}
          </ErrorMessage>
          <PageLink to={resendLink}>{t('verification.requestNewEmail')}</PageLink>
          {toLogin}
        </Stack>
      )}
    </Layout>
  );
}
