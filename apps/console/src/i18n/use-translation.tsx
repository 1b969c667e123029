import { createContext, type ReactNode, useContext } from 'react';
import type { Translator } from './translator';

const TranslatorContext = createContext<Translator | null>(null);

export function TranslatorProvider({
  translator,
  children,
}: {
  translator: Translator;
  children: ReactNode;
}) {
  return <TranslatorContext value={translator}>{children}</TranslatorContext>;
}

/** The page's translator: `t` for its texts and the language it is in. */
export function useTranslation(): Translator {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslation outside TranslatorProvider (app/Root.tsx)');
  return translator;
}
