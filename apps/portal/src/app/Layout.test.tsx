import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testTenant } from '../test/fixtures';
import { renderPage } from '../test/render-page';
import { clientInfoAnswer, stubFetch } from '../test/stub-fetch';

const provider = {
  '/public-srv/public/': () => clientInfoAnswer(),
  '/public-srv/tenantinfo/basic': () => ({ success: true, status: 200, data: {} }),
};
const request = { requestId: 'r1', clientInfo: {} };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('every page', () => {
  it('marks the document hydrated, after which the start script leaves presses to React (start-scripts.ts)', async () => {
    stubFetch(provider);
    document.documentElement.removeAttribute('data-hydrated');
    await renderPage('/login?subdomain=demo&requestId=r1', 'de', testTenant, { signInRequest: request });
    expect(document.documentElement).toHaveAttribute('data-hydrated');
  });

  it('offers the four languages, each in its own name, keeping the query', async () => {
    stubFetch(provider);
    await renderPage('/register?subdomain=demo&requestId=r1&code=abc', 'fr', testTenant, {
      signInRequest: request,
    });
    const languages = screen.getByRole('navigation', { name: 'Langue' });
    expect(within(languages).getByText('Français')).toHaveAttribute('aria-current', 'true');
    expect(within(languages).getByRole('link', { name: 'Deutsch' })).toHaveAttribute(
      'href',
      '/register?subdomain=demo&requestId=r1&code=abc&lang=de',
    );
    expect(within(languages).getByRole('link', { name: 'Italiano' })).toHaveAttribute('lang', 'it');
    expect(within(languages).getAllByRole('link')).toHaveLength(3);
  });

  it("shows the property manager's contact from the registry, office hours in the page's language", async () => {
    stubFetch(provider);
    const tenant = {
      ...testTenant,
      contact: {
        name: 'Demo Immobilien AG',
        phone: '+41 44 123 45 67',
        email: 'verwaltung@demo.example',
        officeHours: { de: 'Mo–Fr 8–12 Uhr', fr: 'lu–ve 8 h–12 h', it: 'lu–ve ore 8–12', en: 'Mon–Fri 8–12' },
      },
    };
    await renderPage('/login?subdomain=demo&requestId=r1', 'de', tenant, { signInRequest: request });
    const contact = screen.getByRole('contentinfo');
    expect(within(contact).getByRole('heading', { name: 'Ihre Verwaltung' })).toBeInTheDocument();
    expect(within(contact).getByRole('link', { name: '+41 44 123 45 67' })).toHaveAttribute(
      'href',
      'tel:+41441234567',
    );
    expect(within(contact).getByRole('link', { name: 'verwaltung@demo.example' })).toHaveAttribute(
      'href',
      'mailto:verwaltung@demo.example',
    );
    expect(contact).toHaveTextContent('Mo–Fr 8–12 Uhr');
    // Links inside lines of text are underlined, not told apart by colour alone (WCAG 1.4.1):
    // Mantine's Anchor underlines what it marks data-underline="always".
    for (const link of within(contact).getAllByRole('link'))
      expect(link, link.textContent!).toHaveAttribute('data-underline', 'always');
  });

  it('shows no contact block when the registry names none', async () => {
    stubFetch(provider);
    await renderPage('/login?subdomain=demo&requestId=r1', 'en', testTenant, { signInRequest: request });
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
  });
});
