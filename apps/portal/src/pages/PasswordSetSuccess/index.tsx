import { Button, Stack } from '@mantine/core';
import { Layout } from '../../app/Layout';
import { SuccessMessage } from '../../components/Feedback';
import { usePortalLoginUrl } from '../../hooks/use-portal-login-url';
import { useTranslation } from '../../i18n/use-translation';

export default function PasswordSetSuccessPage() {
  const { t } = useTranslation();
  const loginUrl = usePortalLoginUrl();
  return (
    <Layout title={t('password_reset.success.title')}>
      <Stack gap="lg">
        <SuccessMessage>{t('password_reset.success.text')}</SuccessMessage>
        <Button component="a" href={loginUrl} fullWidth>
          {t('password_reset.success.toLogin')}
        </Button>
      </Stack>
    </Layout>
  );
}
