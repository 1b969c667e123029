import type { BrandDesign, ThemePreset } from '@concierge/contracts';
import { deriveBrandColors } from './brand-colors';

export const LOGO_PATH = '/logo/brand.jpg';
export const STYLESHEET_PATH = '/css/brand.css';

/**
 * A brand asset's URL for a tenant (routes/brand.ts): the path and the subdomain as always, then
 * what else selects the content — `v`, a content version that makes a changed logo a new URL, or
 * `brandPreview`, the revision a console session previews.
 */
export function brandAssetUrl(
  path: typeof LOGO_PATH | typeof STYLESHEET_PATH,
  subdomain: string,
  extra: Record<string, string> = {},
): string {
  return `${path}?${new URLSearchParams({ subdomain, ...extra })}`;
}

/** The design a page is rendered in, from the brand's colour and the URLs of its assets. */
export function brandDesign(
  subdomain: string,
  brand: { displayName: string; primaryColor: string; themePreset: ThemePreset },
  urls: { logoUrl: string; stylesheetUrl: string | null },
): BrandDesign {
  const colors = deriveBrandColors(brand.primaryColor);
  return {
    subdomain,
    displayName: brand.displayName,
    primaryColor: brand.primaryColor.toLowerCase(),
    primaryShades: colors.shades,
    primaryShade: colors.primaryShade,
    primaryContrastText: colors.primaryContrastText,
    linkColor: colors.linkColor,
    borderColor: colors.borderColor,
    focusRingColor: colors.focusRingColor,
    themePreset: brand.themePreset,
    logoUrl: urls.logoUrl,
    stylesheetUrl: urls.stylesheetUrl,
  };
}
