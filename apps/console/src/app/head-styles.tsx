import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { consoleCssVariables, consoleTheme } from './theme';

// Server only. Mantine's provider writes the theme's CSS variables and its global classes as
// `<style>` elements; the console's theme is one for every page, so they are made once and go into
// the head, and the provider inside the page leaves them out (Root), as the portal does.
let markup: string | undefined;

export function consoleHeadStyles(): string {
  markup ??= renderToStaticMarkup(
    <MantineProvider theme={consoleTheme} cssVariablesResolver={consoleCssVariables} forceColorScheme="light">
      {null}
    </MantineProvider>,
  );
  return markup;
}
