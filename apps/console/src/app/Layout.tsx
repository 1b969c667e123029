import type { ConsolePage, ConsoleTenant } from '@concierge/contracts';
import { Anchor, Button, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useId } from 'react';
import { Flash } from '../components/Flash';
import { LanguageLinks } from '../components/LanguageLinks';
import { PostForm } from '../components/PostForm';
import { SessionNotice } from '../components/SessionNotice';
import { useTranslation } from '../i18n/use-translation';
import { useConsoleState } from './console-state-context';
import { pageHeading } from './page-title';
import { paths } from './paths';

/** The tenant a page belongs to, for the navigation's mark and the way back. */
function tenantOf(view: ConsolePage): ConsoleTenant | null {
  return 'tenant' in view ? view.tenant : null;
}

/** Every page: who is signed in, the languages, the navigation, the page's heading and what the last post did. */
export function Layout({ children }: { children: ReactNode }) {
  const translator = useTranslation();
  const { t } = translator;
  const { user, view } = useConsoleState();
  const tenant = tenantOf(view);
  // Browser tests wait for it before they use what only the script does.
  useEffect(() => {
    document.documentElement.setAttribute('data-hydrated', '');
  }, []);
  return (
    <div className="console">
      <a href="#main" className="skip-link">
        {t('common.skipToContent')}
      </a>
      <header className="console-header">
        <div className="console-header-row">
          <a href={paths.home} className="console-product">
            <span className="console-product-name">{t('common.product')}</span>{' '}
            <span className="console-product-part">{t('common.console')}</span>
          </a>
          <LanguageLinks />
        </div>
        {user && (
          <div className="console-header-row">
            <Text className="console-user">
              {t('common.signedInAs', { email: user.email, role: t(`common.role.${user.role}`) })}
            </Text>
            <PostForm action={paths.signOut}>
              <Button type="submit" variant="default" size="sm">
                {t('common.signOut')}
              </Button>
            </PostForm>
          </div>
        )}
      </header>
      {user && <ConsoleNavigation current={tenant} />}
      <main id="main" tabIndex={-1} className="console-main">
        {tenant && view.page !== 'tenant' && (
          <Anchor href={paths.tenant(tenant.subdomain)} className="back-link">
            {t('common.backToTenant', { name: tenant.displayName })}
          </Anchor>
        )}
        <Title order={1} size="h2" className="page-heading">
          {pageHeading(view, translator)}
        </Title>
        <Flash />
        {children}
      </main>
      <SessionNotice />
    </div>
  );
}

function ConsoleNavigation({ current }: { current: ConsoleTenant | null }) {
  const { t } = useTranslation();
  const { tenants, view } = useConsoleState();
  const tenantsLabel = useId();
  const currentIf = (isCurrent: boolean, kind: 'page' | 'true' = 'page') => (isCurrent ? kind : undefined);
  return (
    <nav aria-label={t('common.navigation')} className="console-nav">
      <ul className="nav-list">
        <li>
          <Anchor href={paths.home} aria-current={currentIf(view.page === 'home')}>
            {t('common.home')}
          </Anchor>
        </li>
        <li>
          <Anchor href={paths.audit()} aria-current={currentIf(view.page === 'audit' && current === null)}>
            {t('common.audit')}
          </Anchor>
        </li>
      </ul>
      {tenants.length > 0 && (
        <div className="nav-tenants">
          <span id={tenantsLabel} className="nav-label">
            {t('common.tenants')}
          </span>
          <ul className="nav-list" aria-labelledby={tenantsLabel}>
            {tenants.map((tenant) => (
              <li key={tenant.subdomain}>
                <Anchor
                  href={paths.tenant(tenant.subdomain)}
                  aria-current={currentIf(
                    current?.subdomain === tenant.subdomain,
                    view.page === 'tenant' ? 'page' : 'true',
                  )}
                >
                  {tenant.displayName}
                </Anchor>
              </li>
            ))}
          </ul>
        </div>
      )}
    </nav>
  );
}
