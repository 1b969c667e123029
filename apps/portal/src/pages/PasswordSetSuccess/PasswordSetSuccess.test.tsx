import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testTenant } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { stubFetch } from '../../test/stub-fetch';

beforeEach(() => {
  window.sessionStorage.clear();
  stubFetch({});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('password-set-success page', () => {
  it('says the password is saved and goes to login on the tenant portal host', async () => {
    await renderPage('/password-set-success?subdomain=demo');
    expect(screen.getByRole('heading', { name: 'Password saved' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your new password has been saved.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      'http://customer.test/login',
    );
  });

  it('uses the portal host of the registry, never one from the query (German)', async () => {
    await renderPage('/password-set-success?subdomain=demo&redirect=https%3A%2F%2Fevil.example.com', 'de', {
      ...testTenant,
      portalUrl: 'https://kunde.example.ch/',
    });
    expect(screen.getByRole('status')).toHaveTextContent('Ihr neues Passwort ist gespeichert.');
    expect(screen.getByRole('link', { name: 'Zur Anmeldung' })).toHaveAttribute(
      'href',
      'https://kunde.example.ch/login',
    );
  });
});
