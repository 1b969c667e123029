import type { Grant, KoaContextWithOIDC } from 'oidc-provider';

/**
 * Every client of this provider is first-party, so there is no consent screen: the grant simply
 * covers what the client asks for (STACK-NOTES: override loadExistingGrant). Only called once the
 * session has an account.
 */
export async function loadFirstPartyGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { oidc } = ctx;
  const client = oidc.client;
  const accountId = oidc.account?.accountId;
  if (!client || !accountId || !oidc.session) return undefined;
  const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(client.clientId);
  const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  const grant =
    existing && existing.accountId === accountId && existing.clientId === client.clientId
      ? existing
      : new oidc.provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(oidc.requestParamOIDCScopes);
  grant.addOIDCClaims(oidc.requestParamClaims);
  await grant.save();
  return grant;
}
