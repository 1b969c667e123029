import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Root } from '../app/Root';
import { locales } from '../i18n/resources';
import { testConfig, testTenant } from '../test/fixtures';
import { PageErrorBoundary } from './PageErrorBoundary';

function BrokenPage(): never {
  throw new Error('text placeholder {{count}} has no value');
}

describe('a page that fails in the browser', () => {
  it('says so in the tenant’s frame and language, with a way to load it again, instead of a blank page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Root
        state={{ config: testConfig, tenant: testTenant, language: 'it', messages: locales.it }}
        themeStylesInHead={false}
      >
        <Router hook={memoryLocation({ path: '/login' }).hook}>
          <PageErrorBoundary>
            <BrokenPage />
          </PageErrorBoundary>
        </Router>
      </Root>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(locales.it.common.pageFailed.title);
    expect(screen.getByRole('alert')).toHaveTextContent(locales.it.common.pageFailed.text);
    expect(screen.getByRole('link', { name: locales.it.common.pageFailed.reload })).toHaveAttribute(
      'href',
      window.location.href,
    );
    expect(screen.getByRole('img', { name: /Demo Immobilien/ })).toBeInTheDocument();
  });
});
