import type { Environment } from './runtime-config';

// A subdomain is one DNS label: it is used in hosts and query strings and must never carry more.
export const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isSubdomain(value: unknown): value is string {
  return typeof value === 'string' && SUBDOMAIN_PATTERN.test(value);
}

/** Built-in looks a tenant can point at; `it2` and `r5` are the spec's fixed alternate themes. */
export const THEME_PRESETS = ['default', 'it2', 'r5'] as const;
export type ThemePreset = (typeof THEME_PRESETS)[number];

/** What the browser gets of a tenant's brand (`GET /api/designs/{subdomain}`, and inlined in every page). */
export interface BrandDesign {
  subdomain: string;
  displayName: string;
  /** `#rrggbb` as the registry gives it. */
  primaryColor: string;
  /** The 10 shades Mantine expects, lightest first. */
  primaryShades: string[];
  /** The shade filled buttons use. */
  primaryShade: number;
  /** Black or white, whichever reads on the filled shade at WCAG AA contrast. */
  primaryContrastText: '#000000' | '#ffffff';
  /** The brand's shade that reads as text on white, for links. */
  linkColor: string;
  /** Field and checkbox borders: a brand-tinted grey at 3:1 on white (WCAG 1.4.11). */
  borderColor: string;
  /** Focus rings and ticked boxes: the brand's shade at 3:1 or more on white (WCAG 1.4.11). */
  focusRingColor: string;
  themePreset: ThemePreset;
  logoUrl: string;
  stylesheetUrl: string | null;
}

/**
 * Whom a tenant asks: the property manager's contact, shown on every page, where the messages say
 * "contact your property manager". Office hours are written per language.
 */
export interface TenantContact {
  name: string;
  phone?: string;
  email?: string;
  officeHours?: Record<'de' | 'fr' | 'it' | 'en', string>;
}

/** The behaviours the spec leaves to "certain subdomains". */
export interface TenantFlags {
  hideRegisterLoginLink: boolean;
  skipFreshRequestIdRedirect: boolean;
  useSpecialLogo: boolean;
  /**
   * spec §4: registration open to everybody with a code, and to invited people. cidaas's client info
   * carries neither flag (cidaas-facts.md, "Public info"), so the registry does; a provider whose
   * client info has them wins.
   */
  registrationEnabled: boolean;
  inviteEnabled: boolean;
}

/** The tenant a page is rendered for: from the registry, never from the query string alone. */
export interface PortalTenant {
  subdomain: string;
  /** False when the requested subdomain is unknown or malformed and the environment's default is shown. */
  isRequested: boolean;
  environment: Environment;
  displayName: string;
  /** The customer's portal host; every navigation there is built from this. */
  portalUrl: string;
  clientId: string;
  /**
   * The client's name at the provider (its client info's `client_name`), when the registry names
   * it: a request id whose client info names another is not this tenant's (isRequestOfClient).
   */
  clientName?: string;
  /** Registered at the provider for clientId: where a fresh request id's sign-in ends. */
  loginRedirectUri: string;
  design: BrandDesign;
  flags: TenantFlags;
  /** The property manager's contact; absent when the registry names none. */
  contact?: TenantContact;
}

/** spec §1: the environment from the tenant, else from the host prefix (dev, test, prod), else dev. */
export function environmentFromHost(host: string | undefined): Environment | undefined {
  const prefix = host?.toLowerCase().split(/[.:]/, 1)[0];
  return prefix === 'dev' || prefix === 'test' || prefix === 'prod' ? prefix : undefined;
}
