import { ENVIRONMENTS, LANGUAGES, SUBDOMAIN_PATTERN, THEME_PRESETS } from '@concierge/contracts';
import { z } from 'zod';

// An asset is a file below the tenants folder: "<folder>/<file>.<ext>", nothing that climbs out.
const ASSET_PATH = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9._-]*\.(svg|png|jpe?g|webp|css)$/;
const imagePath = z
  .string()
  .regex(ASSET_PATH, 'must be "<folder>/<file>.svg|png|jpg|webp" below the tenants folder')
  .refine((path) => !path.endsWith('.css'), 'must be an image');
const stylesheetPath = z
  .string()
  .regex(ASSET_PATH, 'must be "<folder>/<file>.css" below the tenants folder')
  .refine((path) => path.endsWith('.css'), 'must be a .css file');
const httpUrl = z
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

// The editable part of a tenant, exported: the console's brand drafts (brand-input.ts) are checked by
// the same rules as the file, so a brand that can be published can also be written into the file.
export const displayNameSchema = z.string().trim().min(1).max(100);
export const primaryColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1864ab');
export const themePresetSchema = z.enum(THEME_PRESETS);
export const contactSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  phone: z
    .string()
    .regex(/^\+?[0-9][0-9 ()/-]{5,29}$/, 'must be a phone number like +41 44 123 45 67')
    .optional(),
  email: z.email().max(254).optional(),
  /** In every language the portal speaks, e.g. { "de": "Mo–Fr 8–12 Uhr", … }. */
  officeHours: z
    .strictObject({
      de: z.string().trim().min(1).max(200),
      fr: z.string().trim().min(1).max(200),
      it: z.string().trim().min(1).max(200),
      en: z.string().trim().min(1).max(200),
    })
    .optional(),
});
export const flagsSchema = z
  .strictObject({
    hideRegisterLoginLink: z.boolean().default(false),
    skipFreshRequestIdRedirect: z.boolean().default(false),
    useSpecialLogo: z.boolean().default(false),
    /** spec §4 registration flags; cidaas's client info has none, a provider's that does wins. */
    registrationEnabled: z.boolean().default(true),
    inviteEnabled: z.boolean().default(true),
  })
  .prefault({});

const tenantSchema = z.strictObject({
  subdomain: z.string().regex(SUBDOMAIN_PATTERN, 'must be one lower-case DNS label (a-z, 0-9, -)'),
  displayName: displayNameSchema,
  environment: z.enum(ENVIRONMENTS),
  /** The customer's portal host: "to login" and the fresh-request-id redirect go to `${portalUrl}/login`. */
  portalUrl: httpUrl,
  clientId: z.string().min(1).max(200),
  /**
   * The client's name at the provider (`client_name` of its client info). Set: a request id whose
   * client info names another client is never shown under this tenant. Unset: the displayName and
   * the client id stand for it, only to tell this tenant's requests apart from another's
   * (docs/tenants.md).
   */
  clientName: z.string().trim().min(1).max(200).optional(),
  /** The client's redirect URI for a fresh request id (authz/generate); default `${portalUrl}/callback`. */
  loginRedirectUri: httpUrl.optional(),
  brand: z.strictObject({
    primaryColor: primaryColorSchema,
    logo: imagePath,
    stylesheet: stylesheetPath.optional(),
    themePreset: themePresetSchema.default('default'),
  }),
  /**
   * The language the customer's office reads: what Concierge e-mails it (an invitee's request for a
   * new invitation) is written in; German when unset.
   */
  language: z.enum(LANGUAGES).optional(),
  /** The property manager's contact, shown on every page of the tenant. */
  contact: contactSchema.optional(),
  flags: flagsSchema,
});

export const registryFileSchema = z.strictObject({
  /** The logo of the tenants flagged `useSpecialLogo`. */
  specialLogo: imagePath,
  /** Per environment, whose brand an unknown or missing subdomain shows. */
  defaultTenants: z.strictObject({
    dev: z.string(),
    test: z.string(),
    prod: z.string(),
  }),
  tenants: z.array(tenantSchema).min(1),
});

export type RegistryFile = z.infer<typeof registryFileSchema>;
export type TenantEntry = RegistryFile['tenants'][number];
