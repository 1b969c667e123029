import { MantineProvider } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { baseTheme } from '../brand/theme';
import { RuntimeConfigProvider } from '../config/runtime-config';
import { createI18n } from '../i18n/init';
import type { PageState } from '../page-state';

/** Everything a page needs around it; the same on the server and in the browser. */
export function Root({ state, children }: { state: PageState; children: ReactNode }) {
  const [i18n] = useState(() => createI18n(state.language, state.messages));
  return (
    <MantineProvider theme={baseTheme} forceColorScheme="light">
      <I18nextProvider i18n={i18n}>
        <RuntimeConfigProvider config={state.config}>{children}</RuntimeConfigProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
