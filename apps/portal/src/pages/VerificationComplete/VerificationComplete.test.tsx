import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  errorAnswer,
  jsonAnswer,
  NETWORK_ERROR,
  pathOf,
  pendingAnswer,
  queryOf,
  stubPortalApi,
} from '../../test/fetch';
import { renderPage } from '../../test/render-page';

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const LINK = '/verification-complete?email=anna%40example.ch&verificationid=ver-1&subdomain=demo';
const activated = (isAlreadyActivated: boolean) => ({
  success: true,
  status: 200,
  data: { isAlreadyActivated },
});

describe('verification-complete page (spec §4)', () => {
  it('activates on load with e-mail and verification id, then says so with a to-login button', async () => {
    const pending = pendingAnswer();
    const { sent } = stubPortalApi('activate-user-account', pending.promise);
    await renderPage(LINK);
    expect(await screen.findByText('Your account is being activated…')).toBeInTheDocument();
    pending.settle(jsonAnswer(200, activated(false)));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Your account has been activated. You can now sign in.',
      ),
    );
    expect(sent()).toEqual([{ email: 'anna@example.ch', verificationid: 'ver-1' }]);
    // The customer's portal host from the registry, never a host from the query.
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      'http://customer.test/login',
    );
  });

  it('takes the verification id out of the address bar once the activation has started', async () => {
    const { sent } = stubPortalApi('activate-user-account', activated(false));
    const { currentUrl } = await renderPage(LINK);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Your account has been activated. You can now sign in.',
      ),
    );
    expect(currentUrl()).toBe('/verification-complete?email=anna%40example.ch&subdomain=demo');
    // Once, with the id read before it left the address bar.
    expect(sent()).toEqual([{ email: 'anna@example.ch', verificationid: 'ver-1' }]);
  });

  it('says "already activated" in German when the server says so', async () => {
    stubPortalApi('activate-user-account', activated(true));
    await renderPage(LINK, 'de');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Ihr Konto ist bereits aktiviert.'),
    );
    expect(screen.getByRole('link', { name: 'Zur Anmeldung' })).toHaveAttribute(
      'href',
      'http://customer.test/login',
    );
  });

  it.each([
    ['the e-mail', '/verification-complete?verificationid=ver-1'],
    ['the verification id', '/verification-complete?email=anna%40example.ch'],
  ])('shows an error without calling anything when %s is missing', async (_missing, url) => {
    const { sent } = stubPortalApi('activate-user-account', activated(false));
    await renderPage(url);
    expect(screen.getByRole('alert')).toHaveTextContent('The activation link is incomplete.');
    expect(screen.getByRole('link', { name: 'Request a new activation email' })).toBeInTheDocument();
    expect(sent()).toEqual([]);
  });

  it('shows the mapped error for a known code and offers a new activation e-mail (French)', async () => {
    stubPortalApi('activate-user-account', errorAnswer(400, 'email_or_verificationid_invalid'));
    const french = (await import('./locales/fr.json')).error.email_or_verificationid_invalid;
    await renderPage(LINK, 'fr');
    expect(await screen.findByRole('alert')).toHaveTextContent(french);
    const resend = screen.getByRole('link', { name: 'Demander un nouvel e-mail d’activation' });
    expect(pathOf(resend)).toBe('/resend-account-activation-email');
    // The e-mail goes along to prefill the form; the used verification id does not.
    expect(queryOf(resend)).toMatchObject({ email: 'anna@example.ch', subdomain: 'demo' });
    expect(queryOf(resend)).not.toHaveProperty('verificationid');
  });

  it('shows the default error for an unknown code', async () => {
    stubPortalApi('activate-user-account', errorAnswer(500, 'kaputt'));
    await renderPage(LINK);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account could not be activated.');
  });

  it('shows the default error when the server cannot be reached', async () => {
    stubPortalApi('activate-user-account', NETWORK_ERROR);
    await renderPage(LINK);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account could not be activated.');
  });

  it.each([
    ['a body that is not JSON', jsonAnswer(200, '<html>proxy error</html>')],
    ['an answer without isAlreadyActivated', jsonAnswer(200, { success: true, status: 200, data: {} })],
  ])('treats %s as an error', async (_what, answer) => {
    stubPortalApi('activate-user-account', answer);
    await renderPage(LINK);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account could not be activated.');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
