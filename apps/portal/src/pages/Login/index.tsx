import { Text } from '@mantine/core';
import { Layout } from '../../app/Layout';
import { useTranslation } from '../../i18n/use-translation';
import { LoginForm } from './LoginForm';
import { useLogin } from './use-login';

export default function LoginPage() {
  const { t } = useTranslation();
  const login = useLogin();
  return (
    <Layout title={t('login.title')}>
      <Text mb="md">{t('login.intro')}</Text>
      <LoginForm login={login} />
    </Layout>
  );
}
