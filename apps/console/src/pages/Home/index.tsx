import type { TenantFigures } from '@concierge/contracts';
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTenantName } from '../../app/console-state-context';
import { paths } from '../../app/paths';
import { Figures } from '../../components/Figures';
import { useTranslation } from '../../i18n/use-translation';

/** Each of the user's tenants with its figures: what an office looks at first. */
export default function HomePage({ figures }: { figures: TenantFigures[] }) {
  const { t } = useTranslation();
  const nameOf = useTenantName();
  if (figures.length === 0) return <Text>{t('home.empty')}</Text>;
  return (
    <Stack gap="lg">
      <Text>{t('home.intro')}</Text>
      {figures.map((tenantFigures) => (
        <Paper key={tenantFigures.tenant} withBorder p="md" component="section" className="tenant-card">
          <Title order={2} size="h3" mb="sm">
            <Anchor href={paths.tenant(tenantFigures.tenant)}>{nameOf(tenantFigures.tenant)}</Anchor>
          </Title>
          <Figures figures={tenantFigures} />
        </Paper>
      ))}
    </Stack>
  );
}
