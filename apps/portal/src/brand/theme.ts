import type { BrandDesign, ThemePreset } from '@concierge/contracts';
import {
  Button,
  Checkbox,
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
  // Black or white text on brand colours by WCAG relative luminance: 0.179 is where both reach the
  // same contrast, so the better of the two always clears 4.5:1 (the server checks the same).
  autoContrast: true,
  luminanceThreshold: 0.179,
  components: {
    Button: Button.extend({ defaultProps: { size: 'lg' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'md' } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { size: 'md' } }),
    Checkbox: Checkbox.extend({ defaultProps: { size: 'md' } }),
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

/** Links take the brand's shade that stays readable on white. */
export function brandCssVariables(design: BrandDesign): CSSVariablesResolver {
  return () => ({
    variables: { '--brand-link-color': design.linkColor },
    // Mantine's dimmed grey (hints, descriptions) reads at 3.3:1; #495057 reaches 8:1 on white.
    light: { '--mantine-color-anchor': design.linkColor, '--mantine-color-dimmed': '#495057' },
    dark: {},
  });
}
