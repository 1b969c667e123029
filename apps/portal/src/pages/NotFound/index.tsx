import { Anchor, Text } from '@mantine/core';
import { Link, useSearch } from 'wouter';
import { Layout } from '../../app/Layout';
import { useTranslation } from '../../i18n/use-translation';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const search = useSearch();
  return (
    <Layout title={t('notFound.title')}>
      <Text mb="md">{t('notFound.text')}</Text>
      <Anchor component={Link} to={search ? `/login?${search}` : '/login'}>
        {t('notFound.toLogin')}
      </Anchor>
    </Layout>
  );
}
