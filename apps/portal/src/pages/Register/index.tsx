import { Stack, Text } from '@mantine/core';
import { Layout } from '../../app/Layout';
import { SuccessMessage } from '../../components/Feedback';
import { PageLink } from '../../components/PageLink';
import { useDurations } from '../../config/durations';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { useTranslation } from '../../i18n/use-translation';
import { ENDED_INVITATION_MESSAGES, NewInvitationRequest } from './NewInvitationRequest';
import { RegisterForm } from './RegisterForm';
import { useNewInvitationRequest } from './use-new-invitation-request';
import { useRegister } from './use-register';

export default function RegisterPage() {
  const { t } = useTranslation();
  const register = useRegister();
  const newInvitation = useNewInvitationRequest();
  const durations = useDurations();
  // Issue 30: an invitation that was withdrawn or has expired, said on arrival or by a submit, or a
  // request for a new one that the server answered without the script: the page offers the request.
  const endedMessage = ENDED_INVITATION_MESSAGES.find((key) => key === register.submit.error) ?? null;
  const offersNewInvitation =
    register.isInvitation && (endedMessage !== null || newInvitation.posted !== undefined);
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
      ) : newInvitation.submit.isSuccess ? (
        // The same for every link: whether the office was told is not the page's to say.
        <SuccessMessage title={t('register.newInvitation.success.title')} focusOnMount>
          {t('register.newInvitation.success.text')}
        </SuccessMessage>
      ) : (
        <>
          <Text mb="md">{t('register.intro')}</Text>
          {offersNewInvitation && (
            <NewInvitationRequest
              message={endedMessage}
              isMessageNew={register.submit.isFailed}
              request={newInvitation}
            />
          )}
          <RegisterForm register={register} isErrorShownAbove={endedMessage !== null} />
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
