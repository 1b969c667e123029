import { type Interaction, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { hostedPageLocation, hostedPageUrlOf } from '../portal-urls';
import { hasRequiredRoles } from '../users/users';
import { rolesOf } from './account';
import type { ClientDirectory } from './clients';

const { Check } = interactionPolicy;

export const REQUIRED_ROLES_MISSING = 'required_roles_missing';

/**
 * The default login and consent prompts, plus two reasons to send an existing session back to the
 * login page: its account can no longer sign in (status changed), or it lacks the roles the client
 * requires. Without them a session made at one client would open another client's door unchecked.
 */
export function createInteractionPolicy(clients: ClientDirectory): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  const login = policy.get('login');
  if (!login) throw new Error('oidc-provider base policy has no login prompt');
  login.checks.add(
    new Check('account_unavailable', 'the signed-in account can no longer sign in', (ctx) =>
      Boolean(ctx.oidc.session?.accountId && !ctx.oidc.account),
    ),
  );
  login.checks.add(
    new Check(REQUIRED_ROLES_MISSING, 'the account lacks the roles this client requires', (ctx) => {
      const { account, client } = ctx.oidc;
      if (!account || !client) return false;
      const requiredRoles = clients.get(client.clientId)?.required_roles ?? [];
      return !hasRequiredRoles(rolesOf(account), requiredRoles);
    }),
  );
  return policy;
}

/**
 * interactions.url: the client's hosted page with `groupname=default&lang=&view_type=login&requestId=…`
 * (provider-protocol.md, "Hosted-page sign-in"). Nothing else is added: a subdomain arrives only when
 * the configured URL carries it, as at cidaas.
 */
export function createInteractionUrl(portalUrl: string, clients: ClientDirectory) {
  return (_ctx: KoaContextWithOIDC, interaction: Interaction): string => {
    const clientId = interaction.params.client_id;
    const client = typeof clientId === 'string' ? clients.get(clientId) : undefined;
    const isRoleProblem = interaction.prompt.reasons.includes(REQUIRED_ROLES_MISSING);
    return hostedPageLocation(hostedPageUrlOf(client, portalUrl), {
      ...(isRoleProblem ? { error: 'access_denied' } : {}),
      requestId: interaction.uid,
    });
  };
}
