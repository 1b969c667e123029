import type { Kysely, Selectable } from '@concierge/database';
import type { ServerTables, TenantBrandsTable } from '../db/schema';
import { contactSchema, flagsSchema, themePresetSchema } from './registry-file';
import { type BrandRevision, contentVersion, LOGO_MEDIA_TYPES, type LogoMediaType } from './tenant-brand';

// Reading tenant_brands (migration 0810_tenant_brands): the newest published row of a tenant is its
// brand; at most one row of a tenant is its draft.

/** Each tenant's newest published revision: what every instance should be showing. */
export async function latestPublishedRevisions(db: Kysely<ServerTables>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('tenant_brands')
    .select(['tenant', (eb) => eb.fn.max('revision').as('revision')])
    .where('state', '=', 'published')
    .groupBy('tenant')
    .execute();
  return new Map(rows.map((row) => [row.tenant, Number(row.revision)]));
}

/** These revisions, whole (with their logos). */
export async function brandRevisions(
  db: Kysely<ServerTables>,
  wanted: ReadonlyMap<string, number>,
): Promise<BrandRevision[]> {
  if (wanted.size === 0) return [];
  const rows = await db
    .selectFrom('tenant_brands')
    .selectAll()
    .where((eb) =>
      eb.or(
        [...wanted].map(([tenant, revision]) =>
          eb.and([eb('tenant', '=', tenant), eb('revision', '=', revision)]),
        ),
      ),
    )
    .execute();
  return rows.map(revisionOfRow);
}

export async function brandRevisionOf(
  db: Kysely<ServerTables>,
  tenant: string,
  revision: number,
): Promise<BrandRevision | undefined> {
  const [found] = await brandRevisions(db, new Map([[tenant, revision]]));
  return found;
}

export async function draftOf(db: Kysely<ServerTables>, tenant: string): Promise<BrandRevision | undefined> {
  const row = await db
    .selectFrom('tenant_brands')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('state', '=', 'draft')
    .executeTakeFirst();
  return row ? revisionOfRow(row) : undefined;
}

export async function latestPublishedOf(
  db: Kysely<ServerTables>,
  tenant: string,
): Promise<BrandRevision | undefined> {
  const row = await db
    .selectFrom('tenant_brands')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('state', '=', 'published')
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? revisionOfRow(row) : undefined;
}

/** A row as the registry and the console use it; contact and flags read by the registry file's rules. */
function revisionOfRow(row: Selectable<TenantBrandsTable>): BrandRevision {
  const logo = Buffer.from(row.logo);
  return {
    tenant: row.tenant,
    revision: row.revision,
    state: row.state,
    displayName: row.display_name,
    primaryColor: row.primary_color,
    themePreset: themePresetSchema.parse(row.theme_preset),
    logo: { bytes: logo, mediaType: logoMediaType(row.logo_type), version: contentVersion(logo) },
    stylesheet:
      row.stylesheet === null ? null : { text: row.stylesheet, version: contentVersion(row.stylesheet) },
    contact: contactSchema.nullable().parse(row.contact),
    flags: flagsSchema.parse(row.flags),
    savedBy: row.saved_by,
    savedAt: row.saved_at,
    publishedAt: row.published_at,
  };
}

function logoMediaType(value: string): LogoMediaType {
  const known = LOGO_MEDIA_TYPES.find((type) => type === value);
  // The table's check allows only these: anything else is not a row this code wrote.
  if (!known) throw new Error(`tenant_brands: unknown logo type ${value}`);
  return known;
}
