import { Stack, Text } from '@mantine/core';
import { Layout } from '../../app/Layout';
import { SuccessMessage } from '../../components/Feedback';
import { PageLink } from '../../components/PageLink';
import { useDurations } from '../../config/durations';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { useTranslation } from '../../i18n/use-translation';
import { RegisterForm } from './RegisterForm';
import { useRegister } from './use-register';

export default function RegisterPage() {
  const { t } = useTranslation();
  const register = useRegister();
  const durations = useDurations();
  const loginLink = useLinkWithQuery('/login', { omit: REGISTRATION_PARAMETERS });
  // The resend page is for the address just registered; the code stays behind.
  const resendLink = useLinkWithQuery('/resend-account-activation-email', {
    omit: REGISTRATION_PARAMETERS,
    set: { email: register.registeredEmail || undefined },
  });
  return (
    <Layout title={t('register.title')}>
      {register.submit.isSuccess ? (
        // spec §2 and §4: the success message replaces the form.
        <Stack gap="md">
          <SuccessMessage title={t('register.success.title')} focusOnMount>
            {t('register.success.text', { email: register.registeredEmail, ...durations })}
          </SuccessMessage>
          <PageLink to={resendLink}>{t('register.success.resend')}</PageLink>
        </Stack>
      ) : (
        <>
          <Text mb="md">{t('register.intro')}</Text>
          <RegisterForm register={register} />
        </>
      )}
      {register.showLoginLink && (
        <Text mt="lg" ta="center">
          <PageLink to={loginLink}>{t('register.toLogin')}</PageLink>
        </Text>
      )}
    </Layout>
  );
}

/** The registration code and invitation are of no use on the other pages. */
const REGISTRATION_PARAMETERS = ['registrationcode', 'code', 'invite_id'];
