import { join } from 'node:path';
import {
  type BrandDesign,
  type ClientInfo,
  type Environment,
  environmentFromHost,
  isRequestOfClient,
  isSubdomain,
  type PortalTenant,
} from '@concierge/contracts';
import type { SignInClient } from '../provider-client/sign-in-requests';
import { deriveBrandColors } from './brand-colors';
import type { RegistryFile, TenantEntry } from './registry-file';

export interface TenantLookup {
  /** The `subdomain` query parameter as it came: anything, trusted for nothing. */
  subdomain?: unknown;
  /**
   * The request's host name, for tenants served on their own host name: counts only when it is the
   * portal's own host or a name under it (TenantRegistryOptions.portalUrl).
   */
  host?: string;
  /** The environment when neither the tenant nor the host names one. */
  fallbackEnvironment: Environment;
}

export interface TenantRegistryOptions {
  /**
   * The portal's public origin (PORTAL_URL). A request's host selects a tenant or an environment
   * (spec §1) only when it is this origin's host or one or two labels under it, with its own
   * `dev.`/`test.`/`prod.` label left off: for `https://login.example.ch`, `r5.login.example.ch` and
   * `test.login.example.ch`. Without it no host selects anything.
   */
  portalUrl?: string;
}

const ENVIRONMENT_LABEL = /^(dev|test|prod)\./;

interface RegistryState {
  file: RegistryFile;
  /** Where the brand files are: the registry file's folder. */
  folder: string;
  entries: Map<string, TenantEntry>;
  designs: Map<string, BrandDesign>;
}

/** The validated registry: lookups, brand designs and the files behind a brand. */
export class TenantRegistry {
  /**
   * What the registry file says, as one value: replaced whole when the file changes (replaceWith),
   * so that a lookup never meets half an old file and half a new one.
   */
  #state: RegistryState;
  /** The portal's host without its environment label; undefined: hosts select nothing. */
  readonly #portalDomain: string | undefined;

  constructor(file: RegistryFile, folder: string, options: TenantRegistryOptions = {}) {
    this.#state = {
      file,
      folder,
      entries: new Map(file.tenants.map((tenant) => [tenant.subdomain, tenant])),
      designs: new Map(),
    };
    this.#portalDomain = options.portalUrl
      ? new URL(options.portalUrl).hostname.toLowerCase().replace(ENVIRONMENT_LABEL, '')
      : undefined;
  }

  /**
   * From now on, what `next` read (the registry file changed: tenants/watch-registry.ts). Every
   * lookup afterwards answers from it; the designs are made anew from it.
   */
  replaceWith(next: TenantRegistry): void {
    this.#state = next.#state;
  }

  get tenants(): TenantEntry[] {
    return this.#state.file.tenants;
  }

  bySubdomain(subdomain: unknown): TenantEntry | undefined {
    return isSubdomain(subdomain) ? this.#state.entries.get(subdomain) : undefined;
  }

  byClientId(clientId: string): TenantEntry | undefined {
    return this.#state.file.tenants.find((tenant) => tenant.clientId === clientId);
  }

  /** The tenant's client at the provider, as authz/generate needs it. */
  signInClientOf(entry: TenantEntry): SignInClient {
    return { clientId: entry.clientId, redirectUri: loginRedirectUriOf(entry) };
  }

  defaultFor(environment: Environment): TenantEntry {
    return this.#state.entries.get(this.#state.file.defaultTenants[environment])!;
  }

  /**
   * spec §1: the tenant from the `subdomain` parameter, else from the host's first label, else the
   * environment's default (environment from the host prefix, else the configured default). Only the
   * portal's own host names count (hostPrefix): any other Host header selects nothing.
   */
  resolve(lookup: TenantLookup): PortalTenant {
    const prefix = this.hostPrefix(lookup.host);
    const requested = this.bySubdomain(lookup.subdomain) ?? this.bySubdomain(prefix?.split('.', 1)[0]);
    const environment = requested?.environment ?? environmentFromHost(prefix) ?? lookup.fallbackEnvironment;
    const entry = requested ?? this.defaultFor(environment);
    return {
      subdomain: entry.subdomain,
      isRequested: requested !== undefined,
      environment,
      displayName: entry.displayName,
      portalUrl: entry.portalUrl,
      clientId: entry.clientId,
      ...(entry.clientName ? { clientName: entry.clientName } : {}),
      loginRedirectUri: loginRedirectUriOf(entry),
      design: this.design(entry),
      flags: entry.flags,
      ...(entry.contact ? { contact: entry.contact } : {}),
    };
  }

  /**
   * The labels of a request's host before the portal's domain (`r5` of `r5.login.example.ch`, `''`
   * for the portal's host itself), or undefined for any other host, and for more than two labels.
   */
  hostPrefix(host: string | undefined): string | undefined {
    const domain = this.#portalDomain;
    if (!host || !domain) return undefined;
    const name = host.toLowerCase().replace(/:\d+$/, '');
    if (name === domain) return '';
    if (!name.endsWith(`.${domain}`)) return undefined;
    const prefix = name.slice(0, -(domain.length + 1));
    return prefix.split('.').length <= 2 ? prefix : undefined;
  }

  /**
   * The tenants a sign-in request's client info names: by the client id when the answer carries one;
   * else by the client's name, a tenant's `clientName`, or its displayName or client id when it has
   * none (the embedded provider names a client by the tenant's displayName).
   */
  tenantsNamedBy(info: ClientInfo): TenantEntry[] {
    const { client_id: clientId, client_name: name } = info;
    if (clientId !== undefined)
      return this.#state.file.tenants.filter((tenant) => tenant.clientId === clientId);
    if (name === undefined) return [];
    return this.#state.file.tenants.filter((tenant) =>
      tenant.clientName !== undefined
        ? tenant.clientName === name
        : tenant.displayName === name || tenant.clientId === name,
    );
  }

  /**
   * Issue 26: whether a sign-in request may be shown under this tenant. Its own client's id or name
   * decides where the answer or the registry has one (isRequestOfClient); otherwise it is refused only
   * when its client's name is another tenant's and not this one's — cidaas names a client by the name
   * an operator gave it, which the registry cannot know without `clientName` (docs/decisions.md).
   */
  isRequestOf(entry: TenantEntry, info: ClientInfo): boolean {
    const certain = isRequestOfClient(info, entry);
    if (certain !== undefined) return certain;
    const named = this.tenantsNamedBy(info);
    return named.length === 0 || named.includes(entry);
  }

  design(entry: TenantEntry): BrandDesign {
    const cached = this.#state.designs.get(entry.subdomain);
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
    this.#state.designs.set(entry.subdomain, design);
    return design;
  }

  logoFile(entry: TenantEntry): string {
    return join(
      this.#state.folder,
      entry.flags.useSpecialLogo ? this.#state.file.specialLogo : entry.brand.logo,
    );
  }

  stylesheetFile(entry: TenantEntry): string | undefined {
    return entry.brand.stylesheet ? join(this.#state.folder, entry.brand.stylesheet) : undefined;
  }

  /** Every customer portal origin: where the portal may send a browser, and where a login form's redirect may land. */
  portalOrigins(): string[] {
    return [...new Set(this.#state.file.tenants.map((tenant) => new URL(tenant.portalUrl).origin))];
  }
}

/** Registered at the provider for the tenant's client: where a fresh request id's sign-in ends. */
function loginRedirectUriOf(entry: TenantEntry): string {
  return entry.loginRedirectUri ?? `${entry.portalUrl}/callback`;
}
