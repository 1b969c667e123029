import type { AdminInvitation, AdminInvitationRequest, AdminInvitationResend } from '@concierge/contracts';
import type { AdminClient } from './admin-client';
import { type CliOutput, query, table } from './command-parts';
import type { ListOptions } from './commands';

// The invitations: made, listed, withdrawn, sent again, and the invitees' requests for new ones.

export async function createInvitation(
  client: AdminClient,
  output: CliOutput,
  options: { tenant: string; email: string; language?: string },
): Promise<void> {
  const { invitation } = await client.call<{ invitation: AdminInvitation }>('POST', '/invitations', options);
  output.out(`${invitation.id}\n`);
  output.info(
    `Invited ${invitation.email} to ${invitation.tenant} (code ${invitation.code}, valid until ` +
      `${invitation.expiresAt}); the e-mail is on its way. An older open invitation for this address ` +
      'is withdrawn.',
  );
}

export async function listInvitations(
  client: AdminClient,
  output: CliOutput,
  options: ListOptions,
): Promise<void> {
  const { invitations, total } = await client.call<{ invitations: AdminInvitation[]; total: number }>(
    'GET',
    `/invitations${query({ tenant: options.tenant, limit: options.limit, offset: options.offset })}`,
  );
  output.out(
    table(
      ['ID', 'TENANT', 'E-MAIL', 'CODE', 'CODE STATUS', 'CREATED', 'EXPIRES', 'REVOKED'],
      invitations.map((invitation) => [
        invitation.id,
        invitation.tenant,
        invitation.email,
        invitation.code,
        invitation.codeStatus,
        invitation.createdAt,
        invitation.expiresAt ?? '',
        invitation.revokedAt ?? '',
      ]),
    ),
  );
  output.info(`${invitations.length} of ${total} invitations.`);
}

export async function revokeInvitation(client: AdminClient, output: CliOutput, id: string): Promise<void> {
  const { invitation } = await client.call<{ invitation: AdminInvitation }>(
    'POST',
    `/invitations/${encodeURIComponent(id)}/revoke`,
  );
  output.info(
    `Invitation ${invitation.id} for ${invitation.email} is withdrawn (code ${invitation.codeStatus}).`,
  );
}

/** Prints the new invitation's id, as `invitations create` does: a script can go on with it. */
export async function resendInvitation(client: AdminClient, output: CliOutput, id: string): Promise<void> {
  const { invitation, previous } = await client.call<AdminInvitationResend>(
    'POST',
    `/invitations/${encodeURIComponent(id)}/resend`,
  );
  output.out(`${invitation.id}\n`);
  output.info(
    `Sent ${invitation.email} a new invitation (code ${invitation.code}, valid until ` +
      `${invitation.expiresAt}); invitation ${previous.id} is withdrawn.`,
  );
}

export async function listInvitationRequests(
  client: AdminClient,
  output: CliOutput,
  options: ListOptions,
): Promise<void> {
  const { requests, total } = await client.call<{ requests: AdminInvitationRequest[]; total: number }>(
    'GET',
    `/invitation-requests${query({ tenant: options.tenant, limit: options.limit, offset: options.offset })}`,
  );
  output.out(
    table(
      ['ASKED', 'TENANT', 'E-MAIL', 'INVITATION'],
      requests.map((request) => [request.createdAt, request.tenant, request.email, request.invitationId]),
    ),
  );
  output.info(`${requests.length} of ${total} open requests; \`invitations resend INVITATION\` answers one.`);
}
