import { Anchor, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { Layout } from '../../app/Layout';
import { useTranslation } from '../../i18n/use-translation';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  return (
    <Layout title={t('notFound.title')}>
      <Text mb="md">{t('notFound.text')}</Text>
      <Anchor component={Link} to={{ pathname: '/login', search }}>
        {t('notFound.toLogin')}
      </Anchor>
    </Layout>
  );
}
