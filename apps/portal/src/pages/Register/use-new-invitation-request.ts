import { newInvitationRequestForm } from '@concierge/contracts';
import { useSearchParams } from 'wouter';
import { newInvitationRequestErrorKey } from '../../api/error-keys';
import { usePageForm } from '../../hooks/use-page-form';
import { registrationCodeFromQuery } from './use-register';

/**
 * Issue 30: the request for a new invitation, made from the page of a withdrawn or expired one. It
 * sends the link's parameters as the link has them; the server acts only when they name such an
 * invitation, and answers the same in any case.
 */
export function useNewInvitationRequest() {
  const [searchParams] = useSearchParams();
  const page = usePageForm(newInvitationRequestForm, { errorKey: newInvitationRequestErrorKey });
  return {
    ...page,
    link: {
      inviteId: searchParams.get('invite_id')?.trim() ?? '',
      registrationCode: registrationCodeFromQuery(searchParams),
      email: searchParams.get('email')?.trim() ?? '',
    },
  };
}
