import type { BrandDesign } from '@concierge/contracts';
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { brandCssVariables, brandTheme } from './theme';

// Server only. Mantine's provider writes the theme's CSS variables (and its global classes) as
// `<style>` elements on every render, working the variables out anew each time: a tenth of a /login
// render. They depend on the brand design alone, so they are made once per design and go into the
// page's head; the provider inside the page then leaves them out (Root's `themeStylesInHead`).
const styles = new WeakMap<BrandDesign, string>();

/**
 * The palette colours the portal's pages show: the brand's, the alerts' (components/Feedback.tsx,
 * the resend page's note) and the gray and dark of Mantine's own inputs and texts. A brand whose
 * primary shade is not Mantine's 6 moves the filled and outline shades of all fourteen palette
 * colours, so Mantine writes each of them into every page: 2.2 KB of /login's 21 were colours no
 * page shows. Another colour, once used, is still drawn, in the shade of Mantine's stylesheet.
 */
const PAGE_COLOURS = new Set(['brand', 'gray', 'dark', 'red', 'green', 'yellow']);
const PALETTE_VARIABLE =
  /--mantine-color-([a-z]+)-(?:filled|filled-hover|outline|outline-hover|light|light-hover|light-color|text|\d):[^;}]*;/g;
/** The rules for the dark colour scheme, which no page takes (`forceColorScheme="light"`). */
const DARK_SCHEME_RULE = /:root\[data-mantine-color-scheme="dark"\][^{]*\{[^}]*\}/g;

/** Mantine's theme styles without what no page of the portal uses. */
function pageThemeStyles(markup: string): string {
  return markup
    .replace(DARK_SCHEME_RULE, '')
    .replace(PALETTE_VARIABLE, (declaration, colour: string) =>
      PAGE_COLOURS.has(colour) ? declaration : '',
    );
}

export function themeStyles(design: BrandDesign): string {
  let markup = styles.get(design);
  if (markup === undefined) {
    markup = pageThemeStyles(
      renderToStaticMarkup(
        <MantineProvider
          theme={brandTheme(design)}
          cssVariablesResolver={brandCssVariables(design)}
          forceColorScheme="light"
        >
          {null}
        </MantineProvider>,
      ),
    );
    styles.set(design, markup);
  }
  return markup;
}
