import { MantineProvider } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { brandCssVariables, brandTheme } from '../brand/theme';
import { PostedFormProvider } from '../config/posted-form';
import { RuntimeConfigProvider } from '../config/runtime-config';
import { TenantProvider } from '../config/tenant';
import { createTranslator } from '../i18n/translator';
import { TranslatorProvider } from '../i18n/use-translation';
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
  const [translator] = useState(() => createTranslator(state.language, state.messages));
  const [theme] = useState(() => brandTheme(state.tenant.design));
  const [cssVariables] = useState(() => brandCssVariables(state.tenant.design));
  const [postedForm] = useState(() => ({ outcome: state.form, token: state.formToken }));
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariables}
      forceColorScheme="light"
      withCssVariables={!themeStylesInHead}
      withGlobalClasses={!themeStylesInHead}
    >
      <TranslatorProvider translator={translator}>
        <RuntimeConfigProvider config={state.config}>
          <TenantProvider tenant={state.tenant}>
            <RequestSeedProvider seed={state}>
              <PostedFormProvider value={postedForm}>{children}</PostedFormProvider>
            </RequestSeedProvider>
          </TenantProvider>
        </RuntimeConfigProvider>
      </TranslatorProvider>
    </MantineProvider>
  );
}
