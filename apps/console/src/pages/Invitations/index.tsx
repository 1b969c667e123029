import type {
  AdminInvitation,
  AdminInvitationRequest,
  ConsoleFormAgain,
  ConsoleTenant,
  InvitationFormField,
  Language,
} from '@concierge/contracts';
import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { paths } from '../../app/paths';
import { DataTable } from '../../components/DataTable';
import { ErrorSummary } from '../../components/ErrorSummary';
import { fieldId, useFormProblems } from '../../components/form-problems';
import { PostForm } from '../../components/PostForm';
import { formatDate, formatDateTime } from '../../i18n/format';
import { useTranslation } from '../../i18n/use-translation';
import { type InvitationState, invitationState } from './invitation-state';

const INVITATION_LANGUAGES: readonly Language[] = ['de', 'fr', 'it', 'en'];

const STATE_COLOR: Record<InvitationState, string> = {
  open: 'blue.9',
  registered: '#1f6f32',
  withdrawn: 'gray.8',
  expired: 'gray.7',
};

interface InvitationsPageProps {
  tenant: ConsoleTenant;
  invitations: AdminInvitation[];
  requests: AdminInvitationRequest[];
  form: ConsoleFormAgain<InvitationFormField> | null;
}

/** Invite someone by e-mail; see, re-send and withdraw invitations; answer requests for a new one. */
export default function InvitationsPage({ tenant, invitations, requests, form }: InvitationsPageProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xl">
      <InvitationForm tenant={tenant} form={form} />
      <section>
        <Title order={2} id="invitations-list" size="h3" mb="sm">
          {t('invitations.list')}
        </Title>
        {invitations.length === 0 ? (
          <Text>{t('invitations.empty')}</Text>
        ) : (
          <Stack gap="sm">
            <Text>{t('invitations.resendHint')}</Text>
            <InvitationsTable tenant={tenant} invitations={invitations} />
          </Stack>
        )}
      </section>
      <section>
        <Title order={2} id="requests" size="h3" mb="sm">
          {t('invitations.requests')}
        </Title>
        {requests.length === 0 ? (
          <Text>{t('invitations.requestsEmpty')}</Text>
        ) : (
          <RequestsTable tenant={tenant} requests={requests} />
        )}
      </section>
    </Stack>
  );
}

function InvitationForm({ tenant, form }: Pick<InvitationsPageProps, 'tenant' | 'form'>) {
  const { t, language } = useTranslation();
  const problems = useFormProblems(form);
  const label = { email: t('invitations.email'), language: t('invitations.language') };
  return (
    <section className="narrow">
      <Title order={2} id="invitation-new" size="h3" mb="sm">
        {t('invitations.create')}
      </Title>
      <PostForm action={paths.invitations(tenant.subdomain)}>
        <Stack gap="md">
          <ErrorSummary
            problems={(['email', 'language'] as const).map((field) => ({
              field,
              label: label[field],
              message: problems.errorOf(field),
            }))}
            formError={problems.formError}
          />
          <TextInput
            id={fieldId('email')}
            name="email"
            type="email"
            autoComplete="off"
            label={label.email}
            defaultValue={problems.valueOf('email')}
            error={problems.errorOf('email')}
            required
          />
          <NativeSelect
            id={fieldId('language')}
            name="language"
            label={label.language}
            defaultValue={problems.valueOf('language') ?? language}
            error={problems.errorOf('language')}
            data={INVITATION_LANGUAGES.map((value) => ({ value, label: t(`language.${value}`) }))}
          />
          <div>
            <Button type="submit">{t('invitations.submit')}</Button>
          </div>
        </Stack>
      </PostForm>
    </section>
  );
}

function InvitationsTable({
  tenant,
  invitations,
}: {
  tenant: ConsoleTenant;
  invitations: AdminInvitation[];
}) {
  const { t, language } = useTranslation();
  // One moment for every row of the page.
  const [now] = useState(() => Date.now());
  const sub = tenant.subdomain;
  return (
    <DataTable caption={t('invitations.list')} captionHidden>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('invitations.email')}</Table.Th>
          <Table.Th scope="col">{t('batch.language')}</Table.Th>
          <Table.Th scope="col">{t('invitations.created')}</Table.Th>
          <Table.Th scope="col">{t('invitations.expires')}</Table.Th>
          <Table.Th scope="col">{t('invitations.state')}</Table.Th>
          <Table.Th scope="col">{t('invitations.actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {invitations.map((invitation) => {
          const state = invitationState(invitation, now);
          const to = (
            <VisuallyHidden>{` ${t('invitations.to', { email: invitation.email })}`}</VisuallyHidden>
          );
          return (
            <Table.Tr key={invitation.id}>
              <Table.Th scope="row" className="email-cell">
                {invitation.email}
              </Table.Th>
              <Table.Td>{languageName(t, invitation.language)}</Table.Td>
              <Table.Td>{formatDateTime(invitation.createdAt, language)}</Table.Td>
              <Table.Td>
                {invitation.expiresAt ? formatDate(invitation.expiresAt, language) : t('common.noExpiry')}
              </Table.Td>
              <Table.Td>
                <Badge color={STATE_COLOR[state]}>{t(`invitations.stateName.${state}`)}</Badge>
              </Table.Td>
              <Table.Td>
                {state !== 'registered' && (
                  <Group gap="xs" wrap="nowrap">
                    <PostForm action={paths.invitationResend(sub, invitation.id)}>
                      <Button type="submit" size="xs" variant="default">
                        {t('invitations.resend')}
                        {to}
                      </Button>
                    </PostForm>
                    {state === 'open' && (
                      <PostForm
                        action={paths.invitationRevoke(sub, invitation.id)}
                        confirm={t('invitations.revokeConfirm', { email: invitation.email })}
                      >
                        <Button type="submit" size="xs" color="red.9" variant="outline">
                          {t('invitations.revoke')}
                          {to}
                        </Button>
                      </PostForm>
                    )}
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </DataTable>
  );
}

function RequestsTable({ tenant, requests }: { tenant: ConsoleTenant; requests: AdminInvitationRequest[] }) {
  const { t, language } = useTranslation();
  return (
    <DataTable caption={t('invitations.requests')} captionHidden>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('invitations.email')}</Table.Th>
          <Table.Th scope="col">{t('invitations.askedOn')}</Table.Th>
          <Table.Th scope="col">{t('invitations.actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {requests.map((request) => (
          <Table.Tr key={request.id}>
            <Table.Th scope="row" className="email-cell">
              {request.email}
            </Table.Th>
            <Table.Td>{formatDateTime(request.createdAt, language)}</Table.Td>
            <Table.Td>
              <PostForm action={paths.invitationResend(tenant.subdomain, request.invitationId)}>
                <Button type="submit" size="xs" variant="default">
                  {t('invitations.answer')}
                  <VisuallyHidden>{` ${t('invitations.to', { email: request.email })}`}</VisuallyHidden>
                </Button>
              </PostForm>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </DataTable>
  );
}

/** An invitation's language in the page's language; one the console does not know as it is. */
function languageName(t: ReturnType<typeof useTranslation>['t'], code: string): string {
  return (INVITATION_LANGUAGES as readonly string[]).includes(code)
    ? t(`language.${code as Language}`)
    : code;
}
