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
import { brandAssetUrl, brandDesign, LOGO_PATH, STYLESHEET_PATH } from './brand-design';
import type { RegistryFile, TenantEntry } from './registry-file';
import type { BrandLogo, BrandRevision, BrandStylesheet, TenantBrand } from './tenant-brand';

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
  /**
   * The brands published in the database, by subdomain (tenants/brand-sync.ts): each wins over its
   * file entry's editable fields. One of a tenant no longer in the file shows nowhere.
   */
  published: ReadonlyMap<string, BrandRevision>;
  /** The file's tenants, each with its published brand laid over. */
  tenants: TenantEntry[];
  /** Their customer portals' origins, each once: every page's CSP names them (http/security-headers.ts). */
  portalOrigins: readonly string[];
  entries: Map<string, TenantEntry>;
  /** The file's own entries: a tenant's client at the provider is named by the file's displayName. */
  fileEntries: Map<string, TenantEntry>;
  designs: Map<string, BrandDesign>;
}

/** Where a tenant's logo comes from: a file below the registry's folder, or its published brand. */
export type LogoSource = { file: string } | { logo: BrandLogo };
export type StylesheetSource = { file: string } | { stylesheet: BrandStylesheet };

/** The validated registry: lookups, brand designs and the files behind a brand. */
export class TenantRegistry {
  /**
   * What the registry file says with the published brands over it, as one value: replaced whole when
   * the file changes (replaceWith) or a brand is published (takePublishedBrands), so that a lookup
   * never meets half an old file and half a new one.
   */
  #state: RegistryState;
  /** The portal's host without its environment label; undefined: hosts select nothing. */
  readonly #portalDomain: string | undefined;

  constructor(file: RegistryFile, folder: string, options: TenantRegistryOptions = {}) {
    this.#state = stateOf(file, folder, new Map());
    this.#portalDomain = options.portalUrl
      ? new URL(options.portalUrl).hostname.toLowerCase().replace(ENVIRONMENT_LABEL, '')
      : undefined;
  }

  /**
   * From now on, the file `next` read (the registry file changed: tenants/watch-registry.ts), with
   * the published brands in use laid over it. Every lookup afterwards answers from it; the designs
   * are made anew.
   */
  replaceWith(next: TenantRegistry): void {
    this.#state = stateOf(next.#state.file, next.#state.folder, this.#state.published);
  }

  /**
   * From now on, these published brands over the file in use (a brand was published:
   * tenants/brand-sync.ts). At once and whole, like replaceWith.
   */
  takePublishedBrands(published: ReadonlyMap<string, BrandRevision>): void {
    this.#state = stateOf(this.#state.file, this.#state.folder, published);
  }

  /** The published brands in use, by subdomain. */
  get publishedBrands(): ReadonlyMap<string, BrandRevision> {
    return this.#state.published;
  }

  get tenants(): TenantEntry[] {
    return this.#state.tenants;
  }

  /** The tenant as the file has it, without its published brand. */
  fileEntryOf(subdomain: string): TenantEntry | undefined {
    return this.#state.fileEntries.get(subdomain);
  }

  bySubdomain(subdomain: unknown): TenantEntry | undefined {
    return isSubdomain(subdomain) ? this.#state.entries.get(subdomain) : undefined;
  }

  byClientId(clientId: string): TenantEntry | undefined {
    return this.#state.tenants.find((tenant) => tenant.clientId === clientId);
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
    const { tenants, fileEntries } = this.#state;
    if (clientId !== undefined) return tenants.filter((tenant) => tenant.clientId === clientId);
    if (name === undefined) return [];
    // By the registry file's names only: a published displayName renames the brand, not the client,
    // and a manager who published another tenant's name would otherwise show that tenant's sign-in
    // requests under their own brand.
    return tenants.filter((tenant) =>
      tenant.clientName !== undefined
        ? tenant.clientName === name
        : fileEntries.get(tenant.subdomain)?.displayName === name || tenant.clientId === name,
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

  /**
   * The tenant's design. A published brand's logo and stylesheet URLs carry their content's version:
   * a browser keeps them an hour, and a kept page (ssr/page-templates.ts) is keyed by its state,
   * this design in it — so a published change is a new page and new URLs at once.
   */
  design(entry: TenantEntry): BrandDesign {
    const cached = this.#state.designs.get(entry.subdomain);
    if (cached) return cached;
    const { subdomain } = entry;
    const logo = this.logoOf(entry);
    const stylesheet = this.stylesheetOf(entry);
    const brand = {
      displayName: entry.displayName,
      primaryColor: entry.brand.primaryColor,
      themePreset: entry.brand.themePreset,
    };
    const design = brandDesign(subdomain, brand, {
      logoUrl: brandAssetUrl(LOGO_PATH, subdomain, 'logo' in logo ? { v: logo.logo.version } : {}),
      stylesheetUrl: !stylesheet
        ? null
        : brandAssetUrl(
            STYLESHEET_PATH,
            subdomain,
            'stylesheet' in stylesheet ? { v: stylesheet.stylesheet.version } : {},
          ),
    });
    this.#state.designs.set(subdomain, design);
    return design;
  }

  /** The logo the tenant's pages show: the special logo when flagged, else the published one, else the file's. */
  logoOf(entry: TenantEntry): LogoSource {
    const published = this.#state.published.get(entry.subdomain);
    if (published && !entry.flags.useSpecialLogo) return { logo: published.logo };
    return { file: this.logoFile(entry) };
  }

  /** The tenant's stylesheet: the published brand's (none when it has none), else the file's. */
  stylesheetOf(entry: TenantEntry): StylesheetSource | undefined {
    const published = this.#state.published.get(entry.subdomain);
    if (published) return published.stylesheet ? { stylesheet: published.stylesheet } : undefined;
    const file = this.stylesheetFile(entry);
    return file ? { file } : undefined;
  }

  /** The registry's special logo, which tenants flagged `useSpecialLogo` show. */
  specialLogoFile(): string {
    return join(this.#state.folder, this.#state.file.specialLogo);
  }

  /** The logo file the registry file names for the tenant (the special logo when flagged so). */
  logoFile(entry: TenantEntry): string {
    const fileEntry = this.#state.fileEntries.get(entry.subdomain) ?? entry;
    return entry.flags.useSpecialLogo
      ? this.specialLogoFile()
      : join(this.#state.folder, fileEntry.brand.logo);
  }

  /** The tenant's own logo file as the registry file names it, whatever its flags say. */
  tenantLogoFile(subdomain: string): string {
    const fileEntry = this.#state.fileEntries.get(subdomain);
    if (!fileEntry) throw new Error(`no tenant "${subdomain}" in the registry file`);
    return join(this.#state.folder, fileEntry.brand.logo);
  }

  /** The stylesheet file the registry file names for the tenant. */
  stylesheetFile(entry: TenantEntry): string | undefined {
    const fileEntry = this.#state.fileEntries.get(entry.subdomain) ?? entry;
    return fileEntry.brand.stylesheet ? join(this.#state.folder, fileEntry.brand.stylesheet) : undefined;
  }

  /** Every customer portal origin: where the portal may send a browser, and where a login form's redirect may land. */
  portalOrigins(): readonly string[] {
    return this.#state.portalOrigins;
  }
}

/** Registered at the provider for the tenant's client: where a fresh request id's sign-in ends. */
function loginRedirectUriOf(entry: TenantEntry): string {
  return entry.loginRedirectUri ?? `${entry.portalUrl}/callback`;
}

function stateOf(
  file: RegistryFile,
  folder: string,
  published: ReadonlyMap<string, BrandRevision>,
): RegistryState {
  const tenants = file.tenants.map((tenant) => withBrand(tenant, published.get(tenant.subdomain)));
  return {
    file,
    folder,
    published,
    tenants,
    portalOrigins: [...new Set(file.tenants.map((tenant) => new URL(tenant.portalUrl).origin))],
    entries: new Map(tenants.map((tenant) => [tenant.subdomain, tenant])),
    fileEntries: new Map(file.tenants.map((tenant) => [tenant.subdomain, tenant])),
    designs: new Map(),
  };
}

/** The file's entry with the published brand's editable fields in place of its own. */
function withBrand(entry: TenantEntry, brand: TenantBrand | undefined): TenantEntry {
  if (!brand) return entry;
  const { contact: _fileContact, ...rest } = entry;
  return {
    ...rest,
    displayName: brand.displayName,
    brand: { ...entry.brand, primaryColor: brand.primaryColor, themePreset: brand.themePreset },
    flags: brand.flags,
    ...(brand.contact ? { contact: brand.contact } : {}),
  };
}
