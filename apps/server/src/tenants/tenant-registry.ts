import { join } from 'node:path';
import {
  type BrandDesign,
  type Environment,
  environmentFromHost,
  isSubdomain,
  type PortalTenant,
} from '@concierge/contracts';
import type { SignInClient } from '../provider-client/sign-in-requests';
import { deriveBrandColors } from './brand-colors';
import type { RegistryFile, TenantEntry } from './registry-file';

export interface TenantLookup {
  /** The `subdomain` query parameter as it came: anything, trusted for nothing. */
  subdomain?: unknown;
  /** The request's Host header, for tenants served on their own host name. */
  host?: string;
  /** The environment when neither the tenant nor the host names one. */
  fallbackEnvironment: Environment;
}

/** The validated registry: lookups, brand designs and the files behind a brand. */
export class TenantRegistry {
  readonly #entries: Map<string, TenantEntry>;
  readonly #designs = new Map<string, BrandDesign>();

  constructor(
    private readonly file: RegistryFile,
    private readonly folder: string,
  ) {
    this.#entries = new Map(file.tenants.map((tenant) => [tenant.subdomain, tenant]));
  }

  get tenants(): TenantEntry[] {
    return this.file.tenants;
  }

  bySubdomain(subdomain: unknown): TenantEntry | undefined {
    return isSubdomain(subdomain) ? this.#entries.get(subdomain) : undefined;
  }

  byClientId(clientId: string): TenantEntry | undefined {
    return this.file.tenants.find((tenant) => tenant.clientId === clientId);
  }

  /** The tenant's client at the provider, as authz/generate needs it. */
  signInClientOf(entry: TenantEntry): SignInClient {
    return { clientId: entry.clientId, redirectUri: loginRedirectUriOf(entry) };
  }

  defaultFor(environment: Environment): TenantEntry {
    return this.#entries.get(this.file.defaultTenants[environment])!;
  }

  /**
   * spec §1: the tenant from the `subdomain` parameter, else from the host's first label, else the
   * environment's default (environment from the host prefix, else the configured default).
   */
  resolve(lookup: TenantLookup): PortalTenant {
    const requested = this.bySubdomain(lookup.subdomain) ?? this.bySubdomain(lookup.host?.split('.', 1)[0]);
    const environment =
      requested?.environment ?? environmentFromHost(lookup.host) ?? lookup.fallbackEnvironment;
    const entry = requested ?? this.defaultFor(environment);
    return {
      subdomain: entry.subdomain,
      isRequested: requested !== undefined,
      environment,
      displayName: entry.displayName,
      portalUrl: entry.portalUrl,
      clientId: entry.clientId,
      loginRedirectUri: loginRedirectUriOf(entry),
      design: this.design(entry),
      flags: entry.flags,
      ...(entry.contact ? { contact: entry.contact } : {}),
    };
  }

  design(entry: TenantEntry): BrandDesign {
    const cached = this.#designs.get(entry.subdomain);
    if (cached) return cached;
    const colors = deriveBrandColors(entry.brand.primaryColor);
    const query = `subdomain=${entry.subdomain}`;
    const design: BrandDesign = {
      subdomain: entry.subdomain,
      displayName: entry.displayName,
      primaryColor: entry.brand.primaryColor.toLowerCase(),
      primaryShades: colors.shades,
      primaryShade: colors.primaryShade,
      primaryContrastText: colors.primaryContrastText,
      linkColor: colors.linkColor,
      borderColor: colors.borderColor,
      focusRingColor: colors.focusRingColor,
      themePreset: entry.brand.themePreset,
      logoUrl: `/logo/brand.jpg?${query}`,
      stylesheetUrl: entry.brand.stylesheet ? `/css/brand.css?${query}` : null,
    };
    this.#designs.set(entry.subdomain, design);
    return design;
  }

  logoFile(entry: TenantEntry): string {
    return join(this.folder, entry.flags.useSpecialLogo ? this.file.specialLogo : entry.brand.logo);
  }

  stylesheetFile(entry: TenantEntry): string | undefined {
    return entry.brand.stylesheet ? join(this.folder, entry.brand.stylesheet) : undefined;
  }

  /** Every customer portal origin: where the portal may send a browser, and where a login form's redirect may land. */
  portalOrigins(): string[] {
    return [...new Set(this.file.tenants.map((tenant) => new URL(tenant.portalUrl).origin))];
  }
}

/** Registered at the provider for the tenant's client: where a fresh request id's sign-in ends. */
function loginRedirectUriOf(entry: TenantEntry): string {
  return entry.loginRedirectUri ?? `${entry.portalUrl}/callback`;
}
