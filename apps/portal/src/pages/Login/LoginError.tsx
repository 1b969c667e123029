import { FAILED_LOGINS_BEFORE_LOCK, type LoginErrorCode } from '@concierge/contracts';
import { Stack, Text } from '@mantine/core';
import { ErrorMessage } from '../../components/Feedback';
import { ContactDetails } from '../../components/ManagerContact';
import { PageLink } from '../../components/PageLink';
import { useTenant } from '../../config/tenant';
import { useTranslation } from '../../i18n/use-translation';

/**
 * The answer to a sign-in attempt above the form (the provider's redirect back, or a submit here):
 * the focus goes to it, so that it is read out first (WCAG 3.3.1, issue 12). `resetLink` is the
 * forgot-password page with the page's query.
 */
export function LoginError({
  code,
  resetLink,
}: {
  code: LoginErrorCode | 'missing_request_id';
  resetLink: string;
}) {
  const { t } = useTranslation();
  if (code === 'user_not_verified') return <LockedMessage resetLink={resetLink} />;
  return <ErrorMessage focusOnMount>{t(`login.error.${code}`)}</ErrorMessage>;
}

/**
 * spec §4, §8 user_not_verified, issue 25: the locked account in four parts, in one alert — what
 * happened (the third wrong password in a row: FAILED_LOGINS_BEFORE_LOCK, the count the server locks
 * at), why (to protect the account), and what the tenant can do: set a new password (a real link,
 * the way to unlock, spec §2) or turn to the property manager, whose contact follows where the
 * registry has one.
 */
function LockedMessage({ resetLink }: { resetLink: string }) {
  const { t } = useTranslation();
  const { contact } = useTenant();
  return (
    <ErrorMessage focusOnMount title={t('login.error.user_not_verified')}>
      <Stack gap="xs">
        <Text>
          {t('login.locked.happened', { count: FAILED_LOGINS_BEFORE_LOCK })} {t('login.locked.why')}
        </Text>
        <Text>{t('login.locked.unlock')}</Text>
        <Text>
          <PageLink to={resetLink} underline="always" c="inherit" fw={700}>
            {t('login.locked.setNewPassword')}
          </PageLink>
        </Text>
        <div>
          <Text>{t('login.locked.contact')}</Text>
          {contact && <ContactDetails contact={contact} linkColor="inherit" mt={4} />}
        </div>
      </Stack>
    </ErrorMessage>
  );
}
