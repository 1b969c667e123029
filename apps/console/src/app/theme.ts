import { type CSSVariablesResolver, createTheme } from '@mantine/core';

// The console has one look of its own, never a tenant's: a tenant's brand is what it edits.
export const consoleTheme = createTheme({
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  primaryColor: 'blue',
  // blue.8 under white text reads at 4.9:1 (WCAG 1.4.3); Mantine's default shade 6 at 3.6:1.
  primaryShade: 8,
  autoContrast: true,
  components: {
    // Outlined, in shades that read at 4.5:1 on white and on a striped row (components/CodeStateBadge.tsx).
    Badge: { defaultProps: { variant: 'outline', tt: 'none', size: 'lg', radius: 'sm' } },
  },
});

/** Texts Mantine draws in greys and light blues below 4.5:1 on white, darkened to read. */
export const consoleCssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    '--mantine-color-dimmed': '#495057',
    '--mantine-color-error': '#c92a2a',
    '--mantine-color-placeholder': '#6c757d',
  },
  dark: {},
});
