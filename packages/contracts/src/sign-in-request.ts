/**
 * spec §3: what the pages need of the provider's client info. cidaas's answer carries no
 * registration flags (cidaas-facts.md, "Public info"): they are undefined then, and the tenant
 * registry's flags apply.
 */
export interface ClientInfo {
  registration_enabled?: boolean;
  invite_enabled?: boolean;
  client_name?: string;
  /** Sent by some providers, never by cidaas (cidaas-facts.md): then the request's client is certain. */
  client_id?: string;
}

/** spec §3 and §7: the provider's description of itself, read once and cached. */
export interface TenantInfo {
  tenant_name?: string;
  tenant_key?: string;
  allowLoginWith?: string[];
}

/**
 * The sign-in request a page is rendered with: the server checked the request id of the URL (or
 * asked the provider for a fresh one for the page's tenant) before it rendered, so the page's form
 * works from its first frame, without JavaScript and without a call after load.
 */
export interface PageSignInRequest {
  requestId: string;
  clientInfo: ClientInfo;
}

/** The fields of `GET /public-srv/public/{requestId}`'s `data` that the pages use. */
export function readClientInfo(data: unknown): ClientInfo | null {
  if (!data || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  const flag = (value: unknown) => (typeof value === 'boolean' ? value : undefined);
  return {
    registration_enabled: flag(record.registration_enabled),
    invite_enabled: flag(record.invite_enabled),
    client_name: typeof record.client_name === 'string' ? record.client_name : undefined,
    client_id: typeof record.client_id === 'string' ? record.client_id : undefined,
  };
}

/**
 * Issue 26: whether a sign-in request belongs to a tenant's client, from its client info and what
 * the tenant knows of its own client. A client id in the answer decides; cidaas sends none, and
 * then the client's name decides when the registry names it (`clientName`). Otherwise nothing is
 * certain: undefined (the server then asks whether the name is another tenant's,
 * TenantRegistry.tenantsNamedBy).
 */
export function isRequestOfClient(
  info: ClientInfo,
  client: { clientId: string; clientName?: string },
): boolean | undefined {
  if (info.client_id !== undefined) return info.client_id === client.clientId;
  if (client.clientName !== undefined) return info.client_name === client.clientName;
  return undefined;
}

/** The fields of `GET /public-srv/tenantinfo/basic`'s `data`. */
export function readTenantInfo(data: unknown): TenantInfo | null {
  if (!data || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  return {
    tenant_name: typeof record.tenant_name === 'string' ? record.tenant_name : undefined,
    tenant_key: typeof record.tenant_key === 'string' ? record.tenant_key : undefined,
    allowLoginWith: Array.isArray(record.allowLoginWith) ? record.allowLoginWith.map(String) : undefined,
  };
}
