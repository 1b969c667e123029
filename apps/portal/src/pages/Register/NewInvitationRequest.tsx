import { INVITATION_LINK_FIELD, newInvitationRequestForm } from '@concierge/contracts';
import { Button, Stack, Text } from '@mantine/core';
import type { RegisterErrorKey } from '../../api/error-keys';
import { ErrorMessage } from '../../components/Feedback';
import { PageForm } from '../../components/PageForm';
import { useTranslation } from '../../i18n/use-translation';
import type { useNewInvitationRequest } from './use-new-invitation-request';

/** The register call's refusals that say the invitation registers no one any more (issue 30). */
export const ENDED_INVITATION_MESSAGES = [
  'register.error.invitation_withdrawn',
  'register.error.invitation_expired',
] as const satisfies readonly RegisterErrorKey[];
export type EndedInvitationMessage = (typeof ENDED_INVITATION_MESSAGES)[number];

interface NewInvitationRequestProps {
  /** Why the invitation registers no one (withdrawn, expired); none on the answer to the request. */
  message: EndedInvitationMessage | null;
  /** The message answers what the visitor just did (arrival, a submit): it takes the focus. */
  isMessageNew: boolean;
  request: ReturnType<typeof useNewInvitationRequest>;
}

/**
 * Issue 30: above the registration form of an invitation that was withdrawn or has expired, why,
 * and one button that asks the property manager for a new invitation: a form of its own, posted to
 * this page without the script. The registration form says nothing itself then: one message, here.
 */
export function NewInvitationRequest({ message, isMessageNew, request }: NewInvitationRequestProps) {
  const { t } = useTranslation();
  const { form, submit, link } = request;
  return (
    <Stack gap="md" mb="lg">
      {message && <ErrorMessage focusOnMount={isMessageNew && !submit.isFailed}>{t(message)}</ErrorMessage>}
      <PageForm form={form} submit={submit} call={newInvitationRequestForm.call}>
        <input type="hidden" name={INVITATION_LINK_FIELD.inviteId} value={link.inviteId} />
        <input type="hidden" name={INVITATION_LINK_FIELD.registrationCode} value={link.registrationCode} />
        <input type="hidden" name={INVITATION_LINK_FIELD.email} value={link.email} />
        <Text>{t('register.newInvitation.intro')}</Text>
        <Button type="submit" fullWidth loading={submit.isSubmitting}>
          {submit.isSubmitting ? t('register.newInvitation.submitting') : t('register.newInvitation.submit')}
        </Button>
      </PageForm>
    </Stack>
  );
}
