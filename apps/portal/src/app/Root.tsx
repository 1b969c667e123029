import { MantineProvider } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { brandCssVariables, brandTheme } from '../brand/theme';
import { RuntimeConfigProvider } from '../config/runtime-config';
import { TenantProvider } from '../config/tenant';
import { createI18n } from '../i18n/init';
import type { PageState } from '../page-state';
import { RequestSeedProvider } from './sign-in-request/RequestContext';

interface RootProps {
  state: PageState;
  /**
   * The page's head already carries the theme's CSS variables and Mantine's global classes
   * (brand/theme-styles.tsx, made once per tenant): every server-rendered page and its hydration.
   * Only a page the browser renders from scratch has Mantine put them in.
   */
  themeStylesInHead: boolean;
  children: ReactNode;
}

/** Everything a page needs around it; the same on the server and in the browser. */
export function Root({ state, themeStylesInHead, children }: RootProps) {
  const [i18n] = useState(() => createI18n(state.language, state.messages));
  const [theme] = useState(() => brandTheme(state.tenant.design));
  const [cssVariables] = useState(() => brandCssVariables(state.tenant.design));
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariables}
      forceColorScheme="light"
      withCssVariables={!themeStylesInHead}
      withGlobalClasses={!themeStylesInHead}
    >
      <I18nextProvider i18n={i18n}>
        <RuntimeConfigProvider config={state.config}>
          <TenantProvider tenant={state.tenant}>
            <RequestSeedProvider seed={state}>{children}</RequestSeedProvider>
          </TenantProvider>
        </RuntimeConfigProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
