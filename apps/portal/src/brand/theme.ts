import { Button, createTheme, PasswordInput, TextInput } from '@mantine/core';

// spec §9: breakpoints, buttons lg, inputs md. Shade 8 of Mantine's blue keeps white button text
// above WCAG AA contrast (shade 6, Mantine's default, does not). Tenant brands come on top of this.
export const baseTheme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    Button: Button.extend({ defaultProps: { size: 'lg' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'md' } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { size: 'md' } }),
  },
});
