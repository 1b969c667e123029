import type { BrandDesign } from '@concierge/contracts';
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { brandCssVariables, brandTheme } from './theme';

// Server only. Mantine's provider writes the theme's CSS variables (and its global classes) as
// `<style>` elements on every render, working the variables out anew each time: a tenth of a /login
// render. They depend on the brand design alone, so they are made once per design and go into the
// page's head; the provider inside the page then leaves them out (Root's `themeStylesInHead`).
const styles = new WeakMap<BrandDesign, string>();

export function themeStyles(design: BrandDesign): string {
  let markup = styles.get(design);
  if (markup === undefined) {
    markup = renderToStaticMarkup(
      <MantineProvider
        theme={brandTheme(design)}
        cssVariablesResolver={brandCssVariables(design)}
        forceColorScheme="light"
      >
        {null}
      </MantineProvider>,
    );
    styles.set(design, markup);
  }
  return markup;
}
