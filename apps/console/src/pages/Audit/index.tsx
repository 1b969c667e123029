import type { AdminAuditEntry, AdminAuditPage, ConsoleTenant } from '@concierge/contracts';
import { Anchor, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useTenantName } from '../../app/console-state-context';
import { paths } from '../../app/paths';
import { DataTable } from '../../components/DataTable';
import { formatDateTime, formatNumber } from '../../i18n/format';
import type { Translator } from '../../i18n/translator';
import { useTranslation } from '../../i18n/use-translation';

interface AuditPageProps {
  tenant: ConsoleTenant | null;
  log: AdminAuditPage;
}

/** Who changed what, when, for which tenant: newest first, a page at a time. */
export default function AuditPage({ tenant, log }: AuditPageProps) {
  const translator = useTranslation();
  const { t, language } = translator;
  const nameOf = useTenantName();
  return (
    <Stack gap="md">
      {tenant && (
        <Text>
          <Anchor href={paths.audit()}>{t('audit.allTenants')}</Anchor>
        </Text>
      )}
      {log.entries.length === 0 ? (
        <Text>{t('audit.empty')}</Text>
      ) : (
        <DataTable caption={t('audit.entries')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('audit.when')}</Table.Th>
              <Table.Th scope="col">{t('audit.who')}</Table.Th>
              <Table.Th scope="col">{t('audit.action')}</Table.Th>
              <Table.Th scope="col">{t('audit.tenant')}</Table.Th>
              <Table.Th scope="col">{t('audit.target')}</Table.Th>
              <Table.Th scope="col" className="number">
                {t('audit.amount')}
              </Table.Th>
              <Table.Th scope="col">{t('audit.outcome')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Th scope="row" className="nowrap">
                  {formatDateTime(entry.at, language)}
                </Table.Th>
                <Table.Td className="email-cell">{who(entry, translator)}</Table.Td>
                <Table.Td>{actionText(entry.action, translator)}</Table.Td>
                <Table.Td>{entry.tenant ? nameOf(entry.tenant) : t('common.none')}</Table.Td>
                <Table.Td>
                  {entry.target ? <Code className="audit-target">{entry.target}</Code> : t('common.none')}
                </Table.Td>
                <Table.Td className="number">
                  {entry.amount === null ? t('common.none') : formatNumber(entry.amount, language)}
                </Table.Td>
                <Table.Td>{t(`audit.outcomeName.${entry.outcome}`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
      )}
      {log.next !== null && (
        <Group>
          <Anchor href={paths.audit({ tenant: tenant?.subdomain, before: log.next })}>
            {t('audit.older')}
          </Anchor>
        </Group>
      )}
    </Stack>
  );
}

/** The console user by their e-mail; a call with the admin token by the token's short hash. */
function who(entry: AdminAuditEntry, { t }: Translator): string {
  if (entry.user) return entry.user;
  if (entry.token) return t('audit.token', { token: entry.token });
  return t('common.none');
}

/** An action's words; one this bundle has no words for as the server names it. */
function actionText(action: string, { t, has }: Translator): string {
  const key = `audit.actionName.${action.replace(/\./g, '_')}`;
  return has(key) ? t(key) : action;
}
