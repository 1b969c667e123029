import type { AdminBatch, AdminInvitationRequest, ConsoleTenant, TenantFigures } from '@concierge/contracts';
import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { paths } from '../../app/paths';
import { DataTable } from '../../components/DataTable';
import { Figures } from '../../components/Figures';
import { formatDate, formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/use-translation';

interface TenantPageProps {
  tenant: ConsoleTenant;
  figures: TenantFigures;
  batches: AdminBatch[];
  requests: AdminInvitationRequest[];
}

/** One tenant: its figures, its batches of letters, and the ways to its invitations, brand and log. */
export default function TenantPage({ tenant, figures, batches, requests }: TenantPageProps) {
  const { t, language } = useTranslation();
  const sub = tenant.subdomain;
  const count = (value: number) => formatNumber(value, language);
  return (
    <Stack gap="xl">
      <nav aria-label={t('tenant.manage')}>
        <Group gap="md" wrap="wrap">
          <Button component="a" href={paths.batchNew(sub)}>
            {t('tenant.newBatch')}
          </Button>
          <Button component="a" href={paths.invitations(sub)} variant="default">
            {t('tenant.invitations')}
          </Button>
          <Button component="a" href={paths.brand(sub)} variant="default">
            {t('tenant.brand')}
          </Button>
          <Button component="a" href={paths.audit({ tenant: sub })} variant="default">
            {t('tenant.audit')}
          </Button>
        </Group>
      </nav>
      {requests.length > 0 && (
        <Text>
          <Anchor href={`${paths.invitations(sub)}#requests`}>
            {t('tenant.requestsOpen', { count: count(requests.length) })}
          </Anchor>
        </Text>
      )}
      <section>
        <Title order={2} id="figures-heading" size="h3" mb="sm">
          {t('figures.title')}
        </Title>
        <Figures figures={figures} />
      </section>
      <section>
        <Title order={2} id="batches-heading" size="h3" mb="sm">
          {t('tenant.batches')}
        </Title>
        {batches.length === 0 ? (
          <Text>{t('tenant.noBatches')}</Text>
        ) : (
          <DataTable caption={t('tenant.batches')} captionHidden>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('tenant.building')}</Table.Th>
                <Table.Th scope="col">{t('tenant.created')}</Table.Th>
                <Table.Th scope="col">{t('tenant.expires')}</Table.Th>
                <Table.Th scope="col" className="number">
                  {t('figures.unused')}
                </Table.Th>
                <Table.Th scope="col" className="number">
                  {t('figures.used')}
                </Table.Th>
                <Table.Th scope="col" className="number">
                  {t('figures.activated')}
                </Table.Th>
                <Table.Th scope="col" className="number">
                  {t('figures.locked')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {batches.map((batch) => (
                <Table.Tr key={batch.id}>
                  <Table.Th scope="row">
                    <Anchor href={paths.batch(sub, batch.id)}>{batch.building}</Anchor>
                    {batch.revokedAt && (
                      <Badge color="gray.8" ml="xs">
                        {t('tenant.batchRevoked')}
                      </Badge>
                    )}
                  </Table.Th>
                  <Table.Td>{formatDate(batch.createdAt, language)}</Table.Td>
                  <Table.Td>
                    {batch.expiresAt ? formatDate(batch.expiresAt, language) : t('common.noExpiry')}
                  </Table.Td>
                  <Table.Td className="number">{count(batch.figures.unused)}</Table.Td>
                  <Table.Td className="number">{count(batch.figures.used)}</Table.Td>
                  <Table.Td className="number">{count(batch.figures.activated)}</Table.Td>
                  <Table.Td className="number">{count(batch.figures.locked)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )}
      </section>
    </Stack>
  );
}
