import type { MailLayoutBrand } from '@concierge/contracts';
import type { TenantEntry } from '../tenants/registry-file';
import type { TenantRegistry } from '../tenants/tenant-registry';

/** What the server's e-mails show of a tenant's brand: always with its logo. */
export type MailBrand = Required<MailLayoutBrand>;

export function mailBrand(registry: TenantRegistry, entry: TenantEntry, portalUrl: string): MailBrand {
  const design = registry.design(entry);
  return {
    tenantName: entry.displayName,
    buttonColor: design.primaryShades[design.primaryShade] ?? design.primaryColor,
    buttonTextColor: design.primaryContrastText,
    logoUrl: `${portalUrl}${design.logoUrl}`,
  };
}

/**
 * The tenant a stored row names; if an operator has removed it from the registry since, the
 * environment's default brand still gives a readable e-mail (the link keeps the row's subdomain).
 */
export function tenantForMail(
  registry: TenantRegistry,
  subdomain: string,
  fallbackEnvironment: 'dev' | 'test' | 'prod',
): TenantEntry {
  return registry.bySubdomain(subdomain) ?? registry.defaultFor(fallbackEnvironment);
}
