import type { AdminBatchDetail } from '@concierge/contracts';
import { Button, Checkbox, Code, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { type ChangeEvent, useRef } from 'react';
import { paths } from '../../app/paths';
import { CodeStateBadge } from '../../components/CodeStateBadge';
import { DataTable } from '../../components/DataTable';
import { PostForm } from '../../components/PostForm';
import { useHydrated } from '../../hooks/use-hydrated';
import { useTranslation } from '../../i18n/use-translation';

/** States in which a code still has an account behind it, shown with the address it registered. */
const WITH_EMAIL = new Set(['pending', 'used', 'activated', 'locked']);

/**
 * Every code of the batch, in a form that revokes the ones ticked: only an unused code can be
 * revoked, so only its row has a box.
 */
export function CodesTable({ tenant, detail }: { tenant: string; detail: AdminBatchDetail }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const hasUnused = detail.codes.some((code) => code.state === 'unused');
  const selectAll = (event: ChangeEvent<HTMLInputElement>) => {
    const checked = event.currentTarget.checked;
    for (const box of form.current?.querySelectorAll<HTMLInputElement>('input[name="codes"]') ?? []) {
      box.checked = checked;
    }
  };
  return (
    <PostForm action={paths.codesRevoke(tenant)} confirm={t('batch.revokeSelectedConfirm')} formRef={form}>
      <input type="hidden" name="batch" value={detail.batch.id} />
      <Stack gap="md">
        <DataTable caption={t('batch.codes')} captionHidden>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <VisuallyHidden>{t('batch.select')}</VisuallyHidden>
                {hydrated && hasUnused && <Checkbox aria-label={t('batch.selectAll')} onChange={selectAll} />}
              </Table.Th>
              <Table.Th scope="col">{t('batch.unit')}</Table.Th>
              <Table.Th scope="col">{t('batch.name')}</Table.Th>
              <Table.Th scope="col">{t('batch.language')}</Table.Th>
              <Table.Th scope="col">{t('batch.state')}</Table.Th>
              <Table.Th scope="col">{t('batch.code')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.codes.map((code) => (
              <Table.Tr key={code.code}>
                <Table.Td>
                  {code.state === 'unused' && (
                    <Checkbox
                      name="codes"
                      value={code.code}
                      aria-label={t('batch.selectCode', { unit: code.unit })}
                    />
                  )}
                </Table.Td>
                <Table.Th scope="row">{code.unit}</Table.Th>
                <Table.Td>{code.name ?? t('common.none')}</Table.Td>
                <Table.Td>{t(`language.${code.language}`)}</Table.Td>
                <Table.Td>
                  <CodeStateBadge state={code.state} />
                  {code.claimedEmail && WITH_EMAIL.has(code.state) && (
                    <Text size="sm" className="registered-email">
                      {t('batch.registeredWith', { email: code.claimedEmail })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Code className="registration-code">{code.code}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
        {hasUnused && (
          <div>
            <Button type="submit" color="red.9" variant="outline">
              {t('batch.revokeSelected')}
            </Button>
          </div>
        )}
      </Stack>
    </PostForm>
  );
}
