import {
  ADMIN_ERROR_CODES,
  type AdminAuditPage,
  type AdminBatch,
  type AdminBatchDetail,
  type AdminInvitation,
  type AdminInvitationRequest,
  type TenantFigures,
} from './admin-api';
import type { Language } from './language';
import type { TenantContact, TenantFlags, ThemePreset } from './tenant';

// The seam between the server and the console's server bundle (apps/console/src/entry-server.tsx),
// as portal-seam.ts is the portal's: the server loads the built console at run time and never
// imports its code. The server decides what a page shows and handles every form; the console renders
// it, and its script only makes the pages smoother (every form posts without it).

/** Where the console lives; no tenant page links here, and nothing below it is a tenant's. */
export const CONSOLE_PATH = '/console';
/** The console's built scripts and stylesheets: served below the console's path only. */
export const CONSOLE_ASSETS_PATH = '/console/assets';
/** The hidden field every console form carries: the session's token against cross-site posts. */
export const CONSOLE_CSRF_FIELD = '_csrf';

/** Who is signed in, and what they may see: an operator every tenant, a property manager their own. */
export interface ConsoleUser {
  email: string;
  name: string | null;
  role: 'operator' | 'manager';
}

export interface ConsoleTenant {
  subdomain: string;
  displayName: string;
}

/**
 * What a form's post did, said once on the page it leads to. `done` names a success the console has
 * a text for; an error carries the admin API's code (`unknown_tenant`, `no_unused_codes`, …), which
 * the console words, with a general text for a code it does not know.
 */
export type ConsoleFlash =
  | { kind: 'done'; done: ConsoleDone; count?: number }
  | { kind: 'error'; code: ConsoleErrorCode };

/** The errors a console form may end in: the admin API's, and the console's own. */
export const CONSOLE_ERROR_CODES = [...ADMIN_ERROR_CODES, 'nothing_selected', 'invalid_request'] as const;
export type ConsoleErrorCode = (typeof CONSOLE_ERROR_CODES)[number];

export const CONSOLE_DONE = [
  'batch_created',
  'batch_revoked',
  'codes_revoked',
  'invitation_created',
  'invitation_resent',
  'invitation_revoked',
  'brand_draft_saved',
  'brand_published',
  'brand_draft_discarded',
] as const;
export type ConsoleDone = (typeof CONSOLE_DONE)[number];

/** Why the sign-in page is shown. */
export type ConsoleSignInReason =
  | 'signed_out'
  /** The session ended: idle too long, or its day is over. */
  | 'expired'
  /** The provider signed them in, but their account has no console role. */
  | 'no_role'
  /** The provider's answer could not be used (a stale or forged return, the provider away). */
  | 'failed';

/** A form shown again after a post it refused, with what was typed and what is wrong per field. */
export interface ConsoleFormAgain<Field extends string> {
  values: Partial<Record<Field, string>>;
  /** Per field, what is wrong with it (the whole form's problem under `form`). */
  errors: Partial<Record<Field | 'form', ConsoleFieldError>>;
}

/**
 * A field's problem: `required`, `invalid`, `too_long`, an admin API code (ADMIN_ERROR_CODES), or
 * one of a units list's (`not_csv`, `no_header`, `unknown_column`, `no_units`, `too_many_units`,
 * `field_count`, `bad_unit`, `bad_name`, `bad_language`, `unit_twice`), with the line it is on.
 */
export interface ConsoleFieldError {
  code: string;
  line?: number;
}

export type BatchFormField = 'building' | 'expiresOn' | 'units' | 'unitsFile';
export type InvitationFormField = 'email' | 'language';
export type BrandFormField =
  | 'displayName'
  | 'primaryColor'
  | 'themePreset'
  | 'logo'
  | 'stylesheet'
  | 'contactName'
  | 'contactPhone'
  | 'contactEmail'
  | `officeHours.${Language}`
  | keyof TenantFlags;

/** What of a page would not read in a brand colour (apps/server/src/tenants/brand-colors.ts). */
export type BrandContrastProblem = 'button_text' | 'links' | 'field_borders' | 'focus_ring';

/** What a tenant's brand is made of, as the console edits it (the registry's brand, contact and flags). */
export interface ConsoleBrand {
  displayName: string;
  primaryColor: string;
  themePreset: ThemePreset;
  /** Where the logo is served (the draft's while one is edited). */
  logoUrl: string;
  /** The stylesheet's text; empty: none. */
  stylesheet: string;
  contact: TenantContact | null;
  flags: TenantFlags;
}

export interface ConsoleBrandEditor {
  published: ConsoleBrand;
  /** The draft being edited, when there is one; publishing makes it the tenant's brand on every instance. */
  draft: ConsoleBrand | null;
  /** The draft's revision, sent back with publish so that a draft changed meanwhile is not published unseen. */
  draftRevision: number | null;
  /**
   * The portal pages the preview frames show, each a URL on this server that renders the page with
   * the draft for this signed-in session only.
   */
  previewUrls: { page: string; url: string }[];
  /** The contrast problems of the draft's colour, as the registry checks them (empty: none). */
  contrastProblems: BrandContrastProblem[];
}

export type ConsolePage =
  | { page: 'sign-in'; reason: ConsoleSignInReason | null }
  | { page: 'home'; figures: TenantFigures[] }
  | {
      page: 'tenant';
      tenant: ConsoleTenant;
      figures: TenantFigures;
      batches: AdminBatch[];
      requests: AdminInvitationRequest[];
    }
  | { page: 'batch-new'; tenant: ConsoleTenant; form: ConsoleFormAgain<BatchFormField> | null }
  | { page: 'batch'; tenant: ConsoleTenant; detail: AdminBatchDetail }
  | {
      page: 'invitations';
      tenant: ConsoleTenant;
      invitations: AdminInvitation[];
      requests: AdminInvitationRequest[];
      form: ConsoleFormAgain<InvitationFormField> | null;
    }
  | {
      page: 'brand';
      tenant: ConsoleTenant;
      editor: ConsoleBrandEditor;
      form: ConsoleFormAgain<BrandFormField> | null;
    }
  | { page: 'audit'; tenant: ConsoleTenant | null; log: AdminAuditPage }
  | { page: 'forbidden' }
  | { page: 'not-found' };

export interface ConsolePageState {
  language: Language;
  /** Null on the sign-in page. */
  user: ConsoleUser | null;
  /** The tenants this user may see, for the navigation (empty when signed out). */
  tenants: ConsoleTenant[];
  /** The session's token for forms (CONSOLE_CSRF_FIELD); null when signed out. */
  csrfToken: string | null;
  flash: ConsoleFlash | null;
  /** The path and query the page was asked for: links to the other languages keep it. */
  url: string;
  /** When the session ends if nothing is done (ISO 8601), for the notice before it does. */
  sessionEndsAt: string | null;
  view: ConsolePage;
}

export interface RenderedConsolePage {
  html: string;
  title: string;
  /** Mantine's and the console's style elements for the head. */
  headStyles: string;
  /**
   * Attributes for the document's `<html>` element beside `lang`, values unescaped: Mantine's colour
   * scheme (`data-mantine-color-scheme="light"`), which its stylesheets key their colours on. The
   * script sets it too, but a page without the script has only what the server writes.
   */
  htmlAttributes?: Record<string, string>;
}

/** What the console's server bundle exports. */
export interface ConsoleServerBundle {
  renderConsolePage: (state: ConsolePageState) => RenderedConsolePage;
  /** The state as the JSON data block's text (safe inside <script type="application/json">). */
  serialiseConsoleState: (state: ConsolePageState) => string;
  CONSOLE_STATE_ELEMENT_ID: string;
}
