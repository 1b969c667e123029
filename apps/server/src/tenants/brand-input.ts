import {
  type BrandFormField,
  isLanguage,
  type TenantContact,
  type TenantFlags,
  type ThemePreset,
} from '@concierge/contracts';
import { z } from 'zod';
import { AppError } from '../http/errors';
import {
  contactSchema,
  displayNameSchema,
  flagsSchema,
  primaryColorSchema,
  themePresetSchema,
} from './registry-file';
import { LOGO_MEDIA_TYPES, type LogoMediaType, MAX_LOGO_BYTES, MAX_STYLESHEET_BYTES } from './tenant-brand';

/** A draft as the console sends it (admin/brand-drafts.ts, saveBrandDraft). */
export interface BrandDraftInput {
  displayName: string;
  primaryColor: string;
  themePreset: string;
  /** The stylesheet's text; empty: none. */
  stylesheet: string;
  /** A blank field counts as absent; null, or every field blank: no contact. */
  contact: {
    name?: string;
    phone?: string;
    email?: string;
    officeHours?: Partial<Record<'de' | 'fr' | 'it' | 'en', string>>;
  } | null;
  /** A flag left out takes the registry file's default: a form sends all five. */
  flags: Partial<TenantFlags>;
  /** A new logo; absent: the draft's stays, else the published brand's, else the file's. */
  logo?: { bytes: Uint8Array; mediaType: string };
  /** Who saves it, as the console names them (their e-mail): kept with the revision. */
  savedBy: string;
}

export interface CheckedLogo {
  bytes: Buffer;
  mediaType: LogoMediaType;
}

export interface CheckedBrandDraft {
  displayName: string;
  primaryColor: string;
  themePreset: ThemePreset;
  stylesheet: string | null;
  contact: TenantContact | null;
  flags: TenantFlags;
  logo?: CheckedLogo;
  savedBy: string;
}

/**
 * Per field (the console's BrandFormField, or `form` for what no field holds), what is wrong: a field
 * rule's code (`required`, `invalid`, `too_long`) or a logo's (`logo_type_unsupported`,
 * `logo_too_large`, `logo_type_mismatch`, `logo_unsafe`).
 */
export type BrandFieldErrors = Partial<Record<BrandFormField | 'form', string>>;

/** A draft that cannot be saved: 400, naming each field and its code; nothing was saved. */
export class BrandInputError extends AppError {
  constructor(readonly fields: BrandFieldErrors) {
    super(
      400,
      'invalid_request',
      `Brand not saved: ${Object.entries(fields)
        .map(([field, code]) => `${field} ${code}`)
        .join(', ')}`,
    );
  }
}

// The registry file's rules for every field (registry-file.ts), so that a brand that can be published
// can also be written into the file.
const brandDraftSchema = z.strictObject({
  displayName: displayNameSchema,
  primaryColor: primaryColorSchema,
  themePreset: themePresetSchema,
  stylesheet: z
    .string()
    .refine((text) => Buffer.byteLength(text, 'utf8') <= MAX_STYLESHEET_BYTES, 'too_long')
    .transform((text) => (text.trim() === '' ? null : text)),
  contact: contactSchema.nullable(),
  flags: flagsSchema,
  logo: z.strictObject({ bytes: z.instanceof(Uint8Array), mediaType: z.string() }).optional(),
  savedBy: z.string().trim().min(1).max(254),
});

/** The draft as it can be saved, or a BrandInputError naming every field that is wrong. */
export function checkBrandDraft(input: unknown): CheckedBrandDraft {
  const parsed = brandDraftSchema.safeParse(withBlanksLeftOut(input));
  const errors: BrandFieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[fieldOf(issue.path)] ??= codeOf(issue);
  }
  const logoInput = parsed.success ? parsed.data.logo : undefined;
  const logo = logoInput ? checkLogo(logoInput.bytes, logoInput.mediaType) : undefined;
  if (logo && 'problem' in logo) errors.logo = logo.problem;
  if (!parsed.success || Object.keys(errors).length > 0) throw new BrandInputError(errors);
  const { logo: _logoInput, stylesheet, contact, ...rest } = parsed.data;
  return {
    ...rest,
    stylesheet,
    contact: contact ?? null,
    ...(logo && !('problem' in logo) ? { logo } : {}),
  };
}

/**
 * A logo as tenants' pages, e-mails and letters get it: a type all three show, its bytes what the
 * type says (by their magic numbers, never the name or the declared type alone), at most 512 KiB,
 * and an SVG that can do nothing but be drawn (safeSvgProblem).
 */
export function checkLogo(bytes: Uint8Array, mediaType: string): CheckedLogo | { problem: string } {
  const type = LOGO_MEDIA_TYPES.find((known) => known === mediaType.trim().toLowerCase());
  if (!type) return { problem: 'logo_type_unsupported' };
  if (bytes.length === 0) return { problem: 'required' };
  if (bytes.length > MAX_LOGO_BYTES) return { problem: 'logo_too_large' };
  const buffer = Buffer.from(bytes);
  const svgText = type === 'image/svg+xml' ? svgTextOf(buffer) : undefined;
  const actual = svgText !== undefined ? 'image/svg+xml' : rasterTypeOf(buffer);
  if (actual !== type) return { problem: 'logo_type_mismatch' };
  if (svgText !== undefined && isUnsafeSvg(svgText)) return { problem: 'logo_unsafe' };
  return { bytes: buffer, mediaType: type };
}

function rasterTypeOf(bytes: Buffer): LogoMediaType | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
  return undefined;
}

/**
 * An SVG's text: UTF-8 whose first element, after declarations, comments or a doctype, is <svg>
 * (whether those are allowed is isUnsafeSvg's question).
 */
// Each part stops at its own terminator and cannot reach past it: a lazy `[\s\S]*?` inside the
// repetition backtracked exponentially on `<!---->` repeated (280 bytes held the event loop for hours).
const SVG_START =
  /^\uFEFF?\s*(?:(?:<\?(?:(?!\?>)[\s\S])*\?>|<!--(?:(?!-->)[\s\S])*-->|<!DOCTYPE[^>[]*(?:\[[^\]]*\][^>]*)?>)\s*)*<svg[\s/>]/i;

function svgTextOf(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return !text.includes('\0') && SVG_START.test(text) ? text : undefined;
}

/**
 * What makes an SVG more than a drawing, refused rather than cleaned: scripts, event handler
 * attributes, embedded documents, anything that loads from elsewhere (href, src, CSS url() and
 * @import, a processing instruction like xml-stylesheet), entity declarations, and the tricks that
 * hide these from a plain reading (CSS escapes, an animated href). Checked on the text with its
 * character references decoded too, as the XML parser reads it. The logo is also served with a CSP
 * that runs nothing (routes/brand.ts): this is so that no tenant's page, e-mail or letter carries such
 * a file at all.
 */
const UNSAFE_SVG: RegExp[] = [
  /<(?:[^\s=<>/"':]+:)?(?:script|foreignObject|iframe|embed|object|handler|listener)[\s/>]/i,
  /[\s"'/](?:[^\s=<>/"':]+:)?on[a-z]+\s*=/i,
  /<!(?:DOCTYPE|ENTITY)/i,
  /<\?(?!xml\s)/i,
  /attributeName\s*=\s*["']\s*(?:[^\s=<>/"':]+:)?(?:href|src)\b/i,
  /javascript:/i,
  /@import|@font-face/i,
  /\\/,
  /(?:image-set|image|cross-fade|element|expression)\s*\(/i,
];
/** A reference that stays inside the file: a fragment, or an embedded raster image. */
// No two neighbouring parts share a character, so a long value that fails fails at once.
const LOCAL_REFERENCE = /^\s*(?:#[\w.:-]*\s*|data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*)$/i;
/** Where a CSS `url(` starts: what follows it is read from there, never searched for again. */
const URL_OPENING = /url\s*\(/gi;
const URL_ARGUMENT = /\s*(?:"([^"]*)"|'([^']*)'|([^)"']*))\)/y;

function isUnsafeSvg(raw: string): boolean {
  return [raw, decodeCharacterReferences(raw)].some(
    (text) => UNSAFE_SVG.some((pattern) => pattern.test(text)) || hasOutsideReference(text),
  );
}

function hasOutsideReference(text: string): boolean {
  for (const match of text.matchAll(
    /[\s"'](?:[^\s=<>/"':]+:)?(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|())/gi,
  )) {
    const value = match[1] ?? match[2];
    if (value === undefined || !LOCAL_REFERENCE.test(value)) return true;
  }
  // Every `url(` is read where it stands (a search for the whole `url(…)` started again after each
  // `url(` without a close, quadratic on a file of them); one that cannot be read counts as outside.
  for (const opening of text.matchAll(URL_OPENING)) {
    URL_ARGUMENT.lastIndex = opening.index + opening[0].length;
    const argument = URL_ARGUMENT.exec(text);
    const value = argument ? (argument[1] ?? argument[2] ?? argument[3] ?? '') : undefined;
    if (value === undefined || !LOCAL_REFERENCE.test(value)) return true;
  }
  return false;
}

function decodeCharacterReferences(text: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(lt|gt|amp|quot|apos));/gi, (whole, decimal, hex, name) => {
    const code = decimal ? Number(decimal) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return named[String(name).toLowerCase()] ?? whole;
  });
}

/** The console's form sends blank fields: a blank contact field is one not given. */
function withBlanksLeftOut(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  const { contact, ...rest } = input as Record<string, unknown>;
  if (!contact || typeof contact !== 'object') return { ...rest, contact: contact ?? null };
  const filled = Object.entries(contact as Record<string, unknown>).flatMap(([key, value]) => {
    if (typeof value === 'string') return value.trim() === '' ? [] : [[key, value]];
    if (key === 'officeHours' && value && typeof value === 'object') {
      const hours = Object.entries(value).filter(
        ([, text]) => typeof text !== 'string' || text.trim() !== '',
      );
      return hours.length === 0 ? [] : [[key, Object.fromEntries(hours)]];
    }
    return [[key, value]];
  });
  return { ...rest, contact: filled.length === 0 ? null : Object.fromEntries(filled) };
}

const CONTACT_FIELDS: Record<string, BrandFormField> = {
  name: 'contactName',
  phone: 'contactPhone',
  email: 'contactEmail',
};
const FLAG_NAMES = new Set<string>(Object.keys(flagsSchema.unwrap().shape));

function fieldOf(path: PropertyKey[]): BrandFormField | 'form' {
  const [first, second, third] = path.map(String);
  switch (first) {
    case 'displayName':
    case 'primaryColor':
    case 'themePreset':
    case 'stylesheet':
    case 'logo':
      return first;
    case 'contact':
      if (second === 'officeHours') return `officeHours.${third && isLanguage(third) ? third : 'de'}`;
      return CONTACT_FIELDS[second ?? 'name'] ?? 'contactName';
    case 'flags':
      return second !== undefined && FLAG_NAMES.has(second) ? (second as keyof TenantFlags) : 'form';
    default:
      return 'form';
  }
}

function codeOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  if (issue.code === 'too_small') return 'required';
  if (issue.code === 'too_big') return 'too_long';
  if (issue.code === 'custom' && issue.message === 'too_long') return 'too_long';
  return 'invalid';
}
