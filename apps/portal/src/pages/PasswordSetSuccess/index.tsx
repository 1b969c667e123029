import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/Layout';
import { SuccessMessage } from '../../components/Feedback';
import { usePortalLoginUrl } from '../../hooks/use-portal-login-url';

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
