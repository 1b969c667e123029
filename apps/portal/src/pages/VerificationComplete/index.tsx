import { FORM_EXPIRED, PROVIDER_UNREACHABLE, SERVICE_UNAVAILABLE } from '@concierge/contracts';
import { Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { verificationErrorKey } from '../../api/error-keys';
import { Layout } from '../../app/Layout';
import { ErrorMessage, SuccessMessage } from '../../components/Feedback';
import { PageForm } from '../../components/PageForm';
import { PageLink } from '../../components/PageLink';
import { useErrorText } from '../../config/durations';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { usePortalLoginUrl } from '../../hooks/use-portal-login-url';
import { useTranslation } from '../../i18n/use-translation';
import { ActivationStatus, useVerification } from './use-verification';
import './outcome.css';

/**
 * Every error the activation's answer may bring: the page keeps room for the longest from the start.
 * Not `missing_variables`, which a link without its e-mail or id shows from the start, nor
 * `missing_request_property`, which answers only a link with unusable text in them: their longer
 * texts would leave a line or two more empty under every outcome.
 */
const ANSWER_ERROR_KEYS = [
  'default',
  'already_activated',
  'email_or_verificationid_invalid',
  'too_many_requests',
  PROVIDER_UNREACHABLE,
  SERVICE_UNAVAILABLE,
  FORM_EXPIRED,
].map(verificationErrorKey);

export default function VerificationCompletePage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const verification = useVerification();
  const { status, errorKey } = verification;
  // The outcome of an activation replaces the button after the page is live, or comes with the page
  // when the button was pressed without JavaScript: either way it takes the focus, so that screen
  // readers read it out. An incomplete link's error is there from the start.
  const [isOutcomeAwaited] = useState(status !== ActivationStatus.ERROR || verification.isPosted);
  const longestErrorText = ANSWER_ERROR_KEYS.map((key) => errorText(key)).reduce((longest, text) =>
    text.length > longest.length ? text : longest,
  );
  const loginUrl = usePortalLoginUrl();
  // The used verification id stays behind; the e-mail prefills the resend form.
  const resendLink = useLinkWithQuery('/resend-account-activation-email', { omit: ['verificationid'] });
  const toLogin = (
    <Button component="a" href={loginUrl} fullWidth>
      {t('verification.toLogin')}
    </Button>
  );
  const outcome = (message: string) => (
    <Stack gap="lg">
      <SuccessMessage focusOnMount={isOutcomeAwaited}>{message}</SuccessMessage>
      {toLogin}
    </Stack>
  );
  return (
    <Layout title={t('verification.title')}>
      <div className="verification-outcome">
        {/* Each state the button leads through, invisible beneath the one shown: the space of the
            tallest is there from the first frame, so nothing below moves as they replace each other. */}
        <div className="verification-outcome-space" aria-hidden inert>
          <Stack gap="md">
            <Text>{t('verification.confirm')}</Text>
            <Button component="span" fullWidth>
              {t('verification.activate')}
            </Button>
          </Stack>
          {[t('verification.successfullyActivated'), t('verification.alreadyActivated')].map((message) => (
            <Stack key={message} gap="lg">
              <SuccessMessage>{message}</SuccessMessage>
              <Button component="span" fullWidth>
                {t('verification.toLogin')}
              </Button>
            </Stack>
          ))}
          {/* An error's three parts (an expired link, the provider away), with the longest text. */}
          <Stack gap="lg">
            <ErrorMessage>{longestErrorText}</ErrorMessage>
            <Anchor component="span">{t('verification.requestNewEmail')}</Anchor>
            <Button component="span" fullWidth>
              {t('verification.toLogin')}
            </Button>
          </Stack>
        </div>
        <div>{stateOf(status)}</div>
      </div>
    </Layout>
  );

  function stateOf(current: ActivationStatus) {
    switch (current) {
      case ActivationStatus.INIT:
        return (
          <PageForm form={verification.form} submit={{ onSubmit: verification.onSubmit }}>
            <input type="hidden" name="email" value={verification.email} />
            <input type="hidden" name="verificationid" value={verification.verificationId} />
            <Text>{t('verification.confirm')}</Text>
            <Button type="submit" fullWidth>
              {t('verification.activate')}
            </Button>
          </PageForm>
        );
      case ActivationStatus.ACTIVATING:
        return (
          <Group role="status" gap="sm" wrap="nowrap">
            <Loader size="sm" aria-hidden />
            <Text>{t('verification.activating')}</Text>
          </Group>
        );
      case ActivationStatus.SUCCESSFULLY_ACTIVATED:
        return outcome(t('verification.successfullyActivated'));
      case ActivationStatus.ALREADY_ACTICATED:
        return outcome(t('verification.alreadyActivated'));
      case ActivationStatus.ERROR:
        return (
          <Stack gap="lg">
            <ErrorMessage focusOnMount={isOutcomeAwaited}>
              {errorText(errorKey ?? 'verification.error.default', verification.retryAfterSeconds)}
            </ErrorMessage>
            <PageLink to={resendLink}>{t('verification.requestNewEmail')}</PageLink>
            {toLogin}
          </Stack>
        );
    }
  }
}
