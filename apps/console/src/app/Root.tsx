import type { ConsolePageState } from '@concierge/contracts';
import { MantineProvider } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { Messages } from '../i18n/resources';
import { createTranslator } from '../i18n/translator';
import { TranslatorProvider } from '../i18n/use-translation';
import { ConsoleStateProvider } from './console-state-context';
import { consoleCssVariables, consoleTheme } from './theme';

interface RootProps {
  state: ConsolePageState;
  messages: Messages;
  children: ReactNode;
}

/**
 * Everything a page needs around it; the same on the server and in the browser. The head carries
 * Mantine's variables and global classes (app/head-styles.tsx), so the provider writes none.
 */
export function Root({ state, messages, children }: RootProps) {
  const [translator] = useState(() => createTranslator(state.language, messages));
  return (
    <MantineProvider
      theme={consoleTheme}
      cssVariablesResolver={consoleCssVariables}
      forceColorScheme="light"
      withCssVariables={false}
      withGlobalClasses={false}
    >
      <TranslatorProvider translator={translator}>
        <ConsoleStateProvider state={state}>{children}</ConsoleStateProvider>
      </TranslatorProvider>
    </MantineProvider>
  );
}
