import { Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../config/tenant';

interface LayoutProps {
  /** spec §2 and §9: the page title stands in the header (and in the browser tab). */
  title: string;
  children: ReactNode;
}

export function Layout({ title, children }: LayoutProps) {
  const { t } = useTranslation();
  const tenant = useTenant();
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <div className="layout">
      <div className="layout-card">
        <header className="layout-header">
          <img
            className="layout-logo"
            src={tenant.design.logoUrl}
            alt={t('common.logoAlt', { name: tenant.displayName })}
            width={250}
            height={250}
          />
          <Title order={1} size="h2">
            {title}
          </Title>
        </header>
        <main>{children}</main>
      </div>
    </div>
  );
}
