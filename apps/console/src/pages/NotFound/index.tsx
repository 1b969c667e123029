import { Anchor, Stack, Text } from '@mantine/core';
import { paths } from '../../app/paths';
import { useTranslation } from '../../i18n/use-translation';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Text>{t('notFound.text')}</Text>
      <Anchor href={paths.home}>{t('toHome')}</Anchor>
    </Stack>
  );
}
