import type { AdminBatchDetail, ConsoleTenant } from '@concierge/contracts';
import { Button, Group, Stack, Title } from '@mantine/core';
import { paths } from '../../app/paths';
import { Figures } from '../../components/Figures';
import { PostForm } from '../../components/PostForm';
import { formatDate, formatDateTime } from '../../i18n/format';
import { useTranslation } from '../../i18n/use-translation';
import { CodesTable } from './CodesTable';

interface BatchPageProps {
  tenant: ConsoleTenant;
  detail: AdminBatchDetail;
}

/** One batch of letters: its dates and figures, its letters and export, and every code's state. */
export default function BatchPage({ tenant, detail }: BatchPageProps) {
  const { t, language } = useTranslation();
  const { batch } = detail;
  const sub = tenant.subdomain;
  const canRevokeAll = batch.revokedAt === null && batch.figures.unused > 0;
  return (
    <Stack gap="xl">
      <dl className="details">
        <div>
          <dt>{t('batch.created')}</dt>
          <dd>{formatDateTime(batch.createdAt, language)}</dd>
        </div>
        <div>
          <dt>{t('batch.expires')}</dt>
          <dd>{batch.expiresAt ? formatDate(batch.expiresAt, language) : t('common.noExpiry')}</dd>
        </div>
        {batch.revokedAt && (
          <div>
            <dt>{t('batch.revoked')}</dt>
            <dd>{formatDateTime(batch.revokedAt, language)}</dd>
          </div>
        )}
      </dl>
      <Group gap="md" wrap="wrap">
        <Button component="a" href={paths.batchLetters(sub, batch.id)}>
          {t('batch.letters')}
        </Button>
        <Button component="a" href={paths.batchExport(sub, batch.id)} variant="default">
          {t('batch.export')}
        </Button>
        {canRevokeAll && (
          <PostForm action={paths.batchRevoke(sub, batch.id)} confirm={t('batch.revokeAllConfirm')}>
            <Button type="submit" color="red.9" variant="outline">
              {t('batch.revokeAll')}
            </Button>
          </PostForm>
        )}
      </Group>
      <section>
        <Title order={2} id="batch-figures" size="h3" mb="sm">
          {t('figures.title')}
        </Title>
        <Figures figures={batch.figures} />
      </section>
      <section>
        <Title order={2} id="batch-codes" size="h3" mb="sm">
          {t('batch.codes')}
        </Title>
        <CodesTable tenant={sub} detail={detail} />
      </section>
    </Stack>
  );
}
