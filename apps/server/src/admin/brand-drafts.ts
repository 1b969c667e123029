import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { ConsoleBrand, ConsoleBrandEditor } from '@concierge/contracts';
import { type Kysely, sql } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import { contrastProblemsOf } from '../tenants/brand-colors';
import { brandAssetUrl, LOGO_PATH } from '../tenants/brand-design';
import { BrandInputError, type CheckedLogo, checkBrandDraft, checkLogo } from '../tenants/brand-input';
import { BRAND_PREVIEW_PARAMETER, PREVIEW_PAGES, previewUrl } from '../tenants/brand-preview';
import { draftOf, latestPublishedOf } from '../tenants/brand-store';
import { notifyBrandPublished } from '../tenants/brand-sync';
import type { TenantEntry } from '../tenants/registry-file';
import type { BrandRevision } from '../tenants/tenant-brand';
import type { TenantRegistry } from '../tenants/tenant-registry';
import { type AdminActor, requireTenant } from './admin-auth';
import { recordAdminChange } from './audit-log';

// Issue 30: what the console calls to edit a tenant's brand — read it with its draft, save a draft,
// publish it, discard it. Each change is one transaction with its audit row (admin/audit-log.ts),
// under a lock per tenant, so two saves or a save and a publish never interleave.

/** The first key of the advisory lock per tenant's brand; the second is the tenant's hash. */
const BRAND_LOCK_CLASS = 0x4272616e; // "Bran"

/**
 * What the console's brand page shows: the brand in use (the newest published, else the file's),
 * the draft with its revision, the contrast problems of the colour about to be published, and the
 * portal's pages in the draft (or, without one, in the brand in use) for its preview frames.
 */
export async function brandEditor(
  db: Kysely<ServerTables>,
  registry: TenantRegistry,
  tenant: string,
): Promise<ConsoleBrandEditor> {
  const entry = tenantEntry(registry, tenant);
  const [published, draft] = await Promise.all([latestPublishedOf(db, tenant), draftOf(db, tenant)]);
  const publishedBrand = published
    ? consoleBrand(
        published,
        brandAssetUrl(LOGO_PATH, tenant, published.flags.useSpecialLogo ? {} : { v: published.logo.version }),
      )
    : await fileBrand(registry, entry);
  const previewRevision = draft?.revision ?? published?.revision ?? 0;
  return {
    published: publishedBrand,
    draft: draft
      ? consoleBrand(
          draft,
          brandAssetUrl(LOGO_PATH, tenant, { [BRAND_PREVIEW_PARAMETER]: String(draft.revision) }),
        )
      : null,
    draftRevision: draft?.revision ?? null,
    previewUrls: PREVIEW_PAGES.map((page) => ({ page, url: previewUrl(page, tenant, previewRevision) })),
    contrastProblems: contrastProblemsOf((draft ?? publishedBrand).primaryColor),
  };
}

/**
 * Saves the tenant's draft as a new revision (replacing the draft before it), checked by the
 * registry file's rules; a logo not sent is kept from the draft, else the published brand, else the
 * file. A bad input is a 400 BrandInputError naming each field; nothing is saved then.
 */
export async function saveBrandDraft(
  db: Kysely<ServerTables>,
  registry: TenantRegistry,
  tenant: string,
  input: unknown,
  actor: AdminActor,
): Promise<{ revision: number }> {
  requireTenant(actor, tenant);
  tenantEntry(registry, tenant);
  const draft = checkBrandDraft(input);
  return db.transaction().execute(async (trx) => {
    await lockBrand(trx, tenant);
    const logo = draft.logo ?? (await logoInUse(trx, registry, tenant));
    if ('problem' in logo) throw new BrandInputError({ logo: logo.problem });
    const revision = await nextRevision(trx);
    await trx.deleteFrom('tenant_brands').where('tenant', '=', tenant).where('state', '=', 'draft').execute();
    await trx
      .insertInto('tenant_brands')
      .values({
        tenant,
        revision,
        state: 'draft',
        display_name: draft.displayName,
        primary_color: draft.primaryColor,
        theme_preset: draft.themePreset,
        logo: logo.bytes,
        logo_type: logo.mediaType,
        stylesheet: draft.stylesheet,
        contact: draft.contact ? JSON.stringify(draft.contact) : null,
        flags: JSON.stringify(draft.flags),
        saved_by: draft.savedBy,
        saved_at: new Date(),
        published_at: null,
      })
      .execute();
    await recordAdminChange(trx, actor, {
      action: 'brand.save_draft',
      tenant,
      target: String(revision),
      outcome: 'changed',
    });
    return { revision };
  });
}

/**
 * Makes the draft the tenant's brand on every instance (brand-sync.ts), if it is still the one of
 * `revision` the console showed: 409 `brand_draft_changed` when it was saved again or replaced
 * since, 404 `no_brand_draft` when there is none. Either refusal changes nothing.
 */
export async function publishBrandDraft(
  db: Kysely<ServerTables>,
  tenant: string,
  revision: number,
  actor: AdminActor,
): Promise<{ revision: number }> {
  requireTenant(actor, tenant);
  if (!Number.isSafeInteger(revision) || revision < 1) {
    throw new AppError(400, 'invalid_request', 'The revision must be a positive whole number.');
  }
  return db.transaction().execute(async (trx) => {
    await lockBrand(trx, tenant);
    const draft = await trx
      .selectFrom('tenant_brands')
      .select('revision')
      .where('tenant', '=', tenant)
      .where('state', '=', 'draft')
      .executeTakeFirst();
    if (!draft) throw new AppError(404, 'no_brand_draft', `The tenant "${tenant}" has no brand draft.`);
    if (draft.revision !== revision) {
      throw new AppError(
        409,
        'brand_draft_changed',
        `The draft is now revision ${draft.revision}, not ${revision}: look at it again before publishing.`,
      );
    }
    await trx
      .updateTable('tenant_brands')
      .set({ state: 'published', published_at: new Date() })
      .where('tenant', '=', tenant)
      .where('revision', '=', revision)
      .execute();
    await notifyBrandPublished(trx);
    await recordAdminChange(trx, actor, {
      action: 'brand.publish',
      tenant,
      target: String(revision),
      outcome: 'changed',
    });
    return { revision };
  });
}

/** Throws the draft away; none there is a repeat, recorded as unchanged. */
export async function discardBrandDraft(
  db: Kysely<ServerTables>,
  tenant: string,
  actor: AdminActor,
): Promise<{ discarded: boolean }> {
  requireTenant(actor, tenant);
  return db.transaction().execute(async (trx) => {
    await lockBrand(trx, tenant);
    const gone = await trx
      .deleteFrom('tenant_brands')
      .where('tenant', '=', tenant)
      .where('state', '=', 'draft')
      .returning('revision')
      .executeTakeFirst();
    await recordAdminChange(trx, actor, {
      action: 'brand.discard_draft',
      tenant,
      target: gone ? String(gone.revision) : null,
      outcome: gone ? 'changed' : 'unchanged',
    });
    return { discarded: gone !== undefined };
  });
}

/** The file is the source of a tenant's existence: a brand only for a tenant it has. */
function tenantEntry(registry: TenantRegistry, tenant: string): TenantEntry {
  const entry = registry.fileEntryOf(tenant);
  if (!entry) throw new AppError(404, 'unknown_tenant', `No tenant with the subdomain "${tenant}".`);
  return entry;
}

async function lockBrand(trx: Kysely<ServerTables>, tenant: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BRAND_LOCK_CLASS}, hashtext(${tenant}))`.execute(trx);
}

/** Revisions count per tenant, drafts and published alike; a discarded draft's number is not reused before a higher one exists. */
/**
 * A revision number never given before, for any tenant: a draft discarded and a new one saved never
 * share one, so a publish of the number someone previewed publishes what they saw or nothing.
 */
async function nextRevision(trx: Kysely<ServerTables>): Promise<number> {
  const { rows } = await sql<{
    revision: string;
  }>`select nextval('tenant_brand_revisions') as revision`.execute(trx);
  return Number(rows[0]!.revision);
}

/** The logo a draft keeps when none is sent: the draft's, the published brand's, else the file's. */
async function logoInUse(
  trx: Kysely<ServerTables>,
  registry: TenantRegistry,
  tenant: string,
): Promise<CheckedLogo | { problem: string }> {
  const kept = (await draftOf(trx, tenant)) ?? (await latestPublishedOf(trx, tenant));
  if (kept) return kept.logo;
  const file = registry.tenantLogoFile(tenant);
  const mediaType = FILE_LOGO_TYPES[extname(file).toLowerCase()];
  // A WebP logo serves the file's pages, but not the database's three types: a draft needs a new one.
  if (!mediaType) return { problem: 'required' };
  return checkLogo(await readFile(file), mediaType);
}

const FILE_LOGO_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

function consoleBrand(brand: BrandRevision, logoUrl: string): ConsoleBrand {
  return {
    displayName: brand.displayName,
    primaryColor: brand.primaryColor,
    themePreset: brand.themePreset,
    logoUrl,
    stylesheet: brand.stylesheet?.text ?? '',
    contact: brand.contact,
    flags: brand.flags,
  };
}

/** A tenant that never published: its brand as the file has it. */
async function fileBrand(registry: TenantRegistry, entry: TenantEntry): Promise<ConsoleBrand> {
  const stylesheet = registry.stylesheetFile(entry);
  return {
    displayName: entry.displayName,
    primaryColor: entry.brand.primaryColor,
    themePreset: entry.brand.themePreset,
    logoUrl: brandAssetUrl(LOGO_PATH, entry.subdomain),
    stylesheet: stylesheet ? await readFile(stylesheet, 'utf8') : '',
    contact: entry.contact ?? null,
    flags: entry.flags,
  };
}
