import type { PortalTenant } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyRequest } from 'fastify';
import type { ServerTables } from '../db/schema';
import { brandAssetUrl, brandDesign, LOGO_PATH, STYLESHEET_PATH } from './brand-design';
import { brandRevisionOf } from './brand-store';
import type { BrandRevision } from './tenant-brand';
import type { TenantRegistry } from './tenant-registry';

/**
 * Whether this request comes from a console session that may see this tenant's brand drafts: the
 * console plugs its own in (ServerDependencies.mayPreviewBrand); without one nobody previews.
 */
export type BrandPreviewCheck = (request: FastifyRequest, tenant: string) => Promise<boolean>;
export const neverPreview: BrandPreviewCheck = async () => false;

/** The query parameter naming the revision a page, its logo and its stylesheet are previewed in. */
export const BRAND_PREVIEW_PARAMETER = 'brandPreview';

/**
 * The portal's pages (apps/portal/src/app/routes.ts), each framed by the console's preview.
 * brand-drafts.test.ts checks them against the built portal's routes.
 */
export const PREVIEW_PAGES = [
  '/login',
  '/register',
  '/verification-complete',
  '/password-reset-init',
  '/password-set',
  '/password-set-success',
  '/resend-account-activation-email',
] as const;

export function previewUrl(page: string, tenant: string, revision: number): string {
  return `${page}?${new URLSearchParams({ subdomain: tenant, [BRAND_PREVIEW_PARAMETER]: String(revision) })}`;
}

export interface BrandPreview {
  tenant: string;
  revision: number;
  /** The revision's brand; undefined when there is none of that number (a draft discarded): the brand in use. */
  brand: BrandRevision | undefined;
}

/**
 * A page, logo or stylesheet asked for with `brandPreview=<revision>` and the tenant's `subdomain`:
 * shown in that revision only to a console session allowed for the tenant. For anyone else the
 * parameter means nothing and the answer is the published one.
 */
export class BrandPreviews {
  constructor(
    private readonly db: Kysely<ServerTables>,
    /** Replaceable: the console sets its own when it is wired in. */
    public mayPreview: BrandPreviewCheck = neverPreview,
  ) {}

  async previewFor(request: FastifyRequest, registry: TenantRegistry): Promise<BrandPreview | undefined> {
    const query = request.query as Record<string, unknown>;
    const asked = query[BRAND_PREVIEW_PARAMETER];
    if (asked === undefined) return undefined;
    const revision = typeof asked === 'string' && /^\d{1,9}$/.test(asked) ? Number(asked) : undefined;
    const entry = registry.bySubdomain(query.subdomain);
    if (revision === undefined || !entry) return undefined;
    if (!(await this.mayPreview(request, entry.subdomain))) return undefined;
    return {
      tenant: entry.subdomain,
      revision,
      brand: revision > 0 ? await brandRevisionOf(this.db, entry.subdomain, revision) : undefined,
    };
  }
}

/** The page's tenant in the previewed brand, its logo and stylesheet asked for in the same revision. */
export function previewTenant(tenant: PortalTenant, preview: BrandPreview): PortalTenant {
  const { brand, revision } = preview;
  if (!brand || tenant.subdomain !== preview.tenant) return tenant;
  const revisionQuery = { [BRAND_PREVIEW_PARAMETER]: String(revision) };
  const { contact: _published, ...rest } = tenant;
  return {
    ...rest,
    displayName: brand.displayName,
    design: brandDesign(tenant.subdomain, brand, {
      logoUrl: brandAssetUrl(LOGO_PATH, tenant.subdomain, revisionQuery),
      stylesheetUrl: brand.stylesheet
        ? brandAssetUrl(STYLESHEET_PATH, tenant.subdomain, revisionQuery)
        : null,
    }),
    flags: brand.flags,
    ...(brand.contact ? { contact: brand.contact } : {}),
  };
}
