import { Title } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { ErrorMessage } from '../components/Feedback';
import { LanguageSwitcher } from '../components/LanguageSwitcher';
import { ManagerContact } from '../components/ManagerContact';
import { useTenant } from '../config/tenant';
import { useTranslation } from '../i18n/use-translation';
import { documentTitle, useDocumentTitle } from './document-title';
import { useFocusHeadingAfterNavigation } from './navigation-focus';
import { useRequestContext } from './sign-in-request/RequestContext';

/** What a page notice says (issue 28: every page says so while the provider is away). */
const NOTICE_TEXT = {
  provider_unreachable: 'common.providerUnreachable',
  too_many_requests: 'common.tooManyRequests',
} as const;

interface LayoutProps {
  /** spec §2 and §9: the page title stands in the header (and in the browser tab). */
  title: string;
  children: ReactNode;
}

export function Layout({ title, children }: LayoutProps) {
  const { t } = useTranslation();
  const tenant = useTenant();
  const main = useRef<HTMLElement>(null);
  useDocumentTitle(
    documentTitle(title, tenant.displayName),
    documentTitle(t('common.errorTitle', { title }), tenant.displayName),
    main,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusHeadingAfterNavigation(heading);
  const { notice } = useRequestContext();
  // The page is React's now: presses of its forms, links and summaries reach it (start-scripts.ts
  // kept them for the browser until here).
  useEffect(() => {
    document.documentElement.setAttribute('data-hydrated', '');
  }, []);
  return (
    <div className="layout">
      <div className="layout-card">
        <LanguageSwitcher />
        <header className="layout-header">
          <img
            className="layout-logo"
            src={tenant.design.logoUrl}
            alt={t('common.logoAlt', { name: tenant.displayName })}
            width={250}
            height={250}
            // The largest thing on a phone's first screen: it comes before the scripts.
            fetchPriority="high"
          />
          <Title ref={heading} tabIndex={-1} order={1} size="h2">
            {title}
          </Title>
        </header>
        <main ref={main}>
          {notice && (
            <div className="layout-notice">
              <ErrorMessage>{t(NOTICE_TEXT[notice])}</ErrorMessage>
            </div>
          )}
          {children}
        </main>
        <ManagerContact />
      </div>
    </div>
  );
}
