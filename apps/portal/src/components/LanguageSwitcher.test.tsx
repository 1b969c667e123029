import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../test/render-page';
import { clientInfoAnswer, stubFetch } from '../test/stub-fetch';

const provider = {
  '/public-srv/public/': () => clientInfoAnswer(),
  '/public-srv/tenantinfo/basic': () => ({ success: true, status: 200, data: {} }),
};

afterEach(() => {
  vi.unstubAllGlobals();
});

async function languageLinks(url: string): Promise<string[]> {
  stubFetch(provider);
  await renderPage(url, 'de');
  const languages = await screen.findByRole('navigation', { name: 'Sprache' });
  return within(languages)
    .getAllByRole('link')
    .map((link) => link.getAttribute('href') ?? '');
}

describe('LanguageSwitcher', () => {
  // Issue 26, point 1: `//evil.example/login` is a path to the server and another site to a browser.
  it.each([
    '//evil.example/login?subdomain=demo',
    '///evil.example/login?subdomain=demo',
    '/\\evil.example/login?subdomain=demo',
  ])('links %s only to the portal’s own /login, never off the site', async (url) => {
    const links = await languageLinks(url);
    expect(links).toEqual([
      '/login?subdomain=demo&lang=en',
      '/login?subdomain=demo&lang=fr',
      '/login?subdomain=demo&lang=it',
    ]);
  });

  it('links a known page by its route’s path, also when the address adds a slash', async () => {
    const links = await languageLinks('/register/?subdomain=demo&requestId=r1');
    expect(links[0]).toBe('/register?subdomain=demo&requestId=r1&lang=en');
  });
});
