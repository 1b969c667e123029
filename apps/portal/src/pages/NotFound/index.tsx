import { Text } from '@mantine/core';
import { useSearch } from 'wouter';
import { Layout } from '../../app/Layout';
import { PageLink } from '../../components/PageLink';
import { useTranslation } from '../../i18n/use-translation';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const search = useSearch();
  return (
    <Layout title={t('notFound.title')}>
      <Text mb="md">{t('notFound.text')}</Text>
      <PageLink to={search ? `/login?${search}` : '/login'}>{t('notFound.toLogin')}</PageLink>
    </Layout>
  );
}
