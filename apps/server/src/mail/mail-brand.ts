import type { TenantEntry } from '../tenants/registry-file';
import type { TenantRegistry } from '../tenants/tenant-registry';

/** What an e-mail shows of a tenant's brand. */
export interface MailBrand {
  tenantName: string;
  /** The brand's filled shade (what the portal's buttons wear), #rrggbb. */
  buttonColor: string;
  /** Black or white, whichever reads on buttonColor at WCAG AA contrast. */
  buttonTextColor: string;
  /** Absolute: a mail client has no page to resolve a relative URL against. */
  logoUrl: string;
}

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
