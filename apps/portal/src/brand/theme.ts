import { BLACK_TEXT_LUMINANCE_THRESHOLD, type BrandDesign, type ThemePreset } from '@concierge/contracts';
import {
  Button,
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  type MantineThemeOverride,
  mergeThemeOverrides,
  PasswordInput,
  TextInput,
  Title,
} from '@mantine/core';

// spec §9: breakpoints, buttons lg, inputs md. Everything tenant-specific comes on top.
const baseTheme = createTheme({
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  // Black or white text on brand colours by WCAG relative luminance, the rule the server's brand
  // colours and the e-mails use too (@concierge/contracts, contrast.ts).
  autoContrast: true,
  luminanceThreshold: BLACK_TEXT_LUMINANCE_THRESHOLD,
  components: {
    Button: Button.extend({ defaultProps: { size: 'lg' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'md' } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { size: 'md' } }),
    // A plain object, not Checkbox.extend: importing Checkbox here put it, with its group and card,
    // into every page's scripts, though only /register shows one.
    Checkbox: { defaultProps: { size: 'md' } },
  },
});

/** The fixed alternate looks (spec §1: it2 and r5), chosen by the registry, never by a subdomain in code. */
const presets: Record<ThemePreset, MantineThemeOverride> = {
  default: {},
  it2: createTheme({
    defaultRadius: 0,
    headings: { fontWeight: '800' },
    components: {
      Button: Button.extend({ styles: { label: { textTransform: 'uppercase', letterSpacing: '0.05em' } } }),
      Title: Title.extend({ styles: { root: { textTransform: 'uppercase', letterSpacing: '0.03em' } } }),
    },
  }),
  r5: createTheme({
    defaultRadius: 'xl',
    headings: { fontFamily: 'Georgia, "Times New Roman", serif', fontWeight: '600' },
  }),
};

// The server renders every page of a tenant from the registry's one design object: build its theme once.
const themes = new WeakMap<BrandDesign, MantineThemeOverride>();

export function brandTheme(design: BrandDesign): MantineThemeOverride {
  const cached = themes.get(design);
  if (cached) return cached;
  const theme = buildBrandTheme(design);
  themes.set(design, theme);
  return theme;
}

function buildBrandTheme(design: BrandDesign): MantineThemeOverride {
  return mergeThemeOverrides(baseTheme, presets[design.themePreset], {
    colors: { brand: design.primaryShades as unknown as MantineColorsTuple },
    primaryColor: 'brand',
    primaryShade: design.primaryShade as MantineThemeOverride['primaryShade'],
  });
}

/**
 * The error red on white: Mantine's red.6 (#fa5252) reads at 3.28:1; red.9 reaches 5.46:1 (WCAG
 * 1.4.3), for error texts, the required-field asterisk and invalid borders.
 */
export const ERROR_COLOR = '#c92a2a';

/**
 * Links take the brand's shade that stays readable on white; field borders and the focus ring the
 * colours the server derived at 3:1 on white (WCAG 1.4.11), used by app/accessibility.css.
 */
export function brandCssVariables(design: BrandDesign): CSSVariablesResolver {
  return () => ({
    variables: {
      '--brand-link-color': design.linkColor,
      '--brand-border-color': design.borderColor,
      '--brand-focus-ring-color': design.focusRingColor,
    },
    // Mantine's dimmed grey (hints, descriptions) reads at 3.3:1; #495057 reaches 8:1 on white.
    light: {
      '--mantine-color-anchor': design.linkColor,
      '--mantine-color-dimmed': '#495057',
      '--mantine-color-error': ERROR_COLOR,
      // Placeholders (the registration code's pattern) are text too: gray.5 read at 2.07:1, this at 4.69:1.
      '--mantine-color-placeholder': '#6c757d',
    },
    dark: {},
  });
}
