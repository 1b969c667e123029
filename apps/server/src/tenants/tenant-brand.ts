import { createHash } from 'node:crypto';
import type { TenantContact, TenantFlags, ThemePreset } from '@concierge/contracts';

/** The logo types a tenant's pages, its e-mails and its letters (PDF) can all show. */
export const LOGO_MEDIA_TYPES = ['image/svg+xml', 'image/png', 'image/jpeg'] as const;
export type LogoMediaType = (typeof LOGO_MEDIA_TYPES)[number];
export const MAX_LOGO_BYTES = 512 * 1024;
export const MAX_STYLESHEET_BYTES = 64 * 1024;

export interface BrandLogo {
  bytes: Buffer;
  mediaType: LogoMediaType;
  /** Derived from the bytes: the logo's URL carries it, so a new logo is a new URL (contentVersion). */
  version: string;
}

export interface BrandStylesheet {
  text: string;
  version: string;
}

/**
 * The editable part of a tenant, as the console edits it and the database holds it: everything else
 * of a tenant (its subdomain, environment, portal, client, language) is the registry file's alone.
 */
export interface TenantBrand {
  displayName: string;
  primaryColor: string;
  themePreset: ThemePreset;
  logo: BrandLogo;
  stylesheet: BrandStylesheet | null;
  contact: TenantContact | null;
  flags: TenantFlags;
}

/** One row of tenant_brands: a draft, or a revision that was published. */
export interface BrandRevision extends TenantBrand {
  tenant: string;
  revision: number;
  state: 'draft' | 'published';
  savedBy: string;
  savedAt: Date;
  publishedAt: Date | null;
}

/**
 * A short hash of a logo's or stylesheet's content, for the `v` of its URL and its ETag: a browser
 * keeps the asset an hour, so only a new URL shows a new one at once.
 */
export function contentVersion(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}
