import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusedSummary } from '../../test/error-summary';
import { errorAnswer, NETWORK_ERROR, pathOf, pendingAnswer, queryOf, stubPortalApi } from '../../test/fetch';
import { renderPage } from '../../test/render-page';

const SENT = { success: true, status: 200, data: {} };

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const email = () => screen.getByLabelText(/^Email address/);

describe('resend-account-activation-email page', () => {
  it('prefills the e-mail and shows the info text', async () => {
    stubPortalApi('resend-account-activation-email', SENT);
    await renderPage('/resend-account-activation-email?email=anna%40example.ch&requestId=r1');
    expect(email()).toHaveValue('anna@example.ch');
    expect(screen.getByText(/We will send you a new activation email/)).toBeInTheDocument();
    expect(screen.queryByText(/has not been activated yet/)).not.toBeInTheDocument();
  });

  it('explains why the visitor is here after a sign-in with an unverified account', async () => {
    stubPortalApi('resend-account-activation-email', SENT);
    await renderPage('/resend-account-activation-email?email=a%40b.ch&reason=email_not_verified', 'de');
    expect(screen.getByText(/Ihr Konto ist noch nicht aktiviert/)).toBeInTheDocument();
  });

  it('validates the e-mail on blur and on submit', async () => {
    const { sent } = stubPortalApi('resend-account-activation-email', SENT);
    await renderPage('/resend-account-activation-email');
    await userEvent.type(email(), 'anna');
    await userEvent.tab();
    expect(screen.getByText('The email address format is invalid.')).toBeInTheDocument();
    await userEvent.clear(email());
    await userEvent.click(screen.getByRole('button', { name: 'Send activation email' }));
    // The error summary takes the focus; its link leads to the field (issue 25).
    const { summary } = await focusedSummary();
    await userEvent.click(within(summary).getByRole('link', { name: 'Please enter your email address.' }));
    expect(email()).toHaveFocus();
    expect(email()).toHaveAttribute('aria-invalid', 'true');
    expect(sent()).toEqual([]);
  });

  it.each(['known@example.ch', 'unknown@example.ch'])(
    'gives the same answer for every address (%s), naming both e-mails it may have sent, replacing the form',
    async (address) => {
      const pending = pendingAnswer();
      const { sent } = stubPortalApi('resend-account-activation-email', pending.promise);
      await renderPage('/resend-account-activation-email');
      await userEvent.type(email(), address);
      await userEvent.click(screen.getByRole('button', { name: 'Send activation email' }));
      expect(email()).toBeDisabled();
      pending.settle(Response.json(SENT));
      expect(await screen.findByRole('status')).toHaveTextContent(
        'If an account with this address exists, we have sent a new activation email or, if the account is already activated, an email saying so with a link to sign in.',
      );
      expect(screen.queryByLabelText(/^Email address/)).not.toBeInTheDocument();
      // The page's tenant goes along: the brand of the note an active account gets.
      expect(sent()).toEqual([{ email: address, subdomain: 'demo' }]);
    },
  );

  it.each([
    ['a refusal', errorAnswer(429, 'too_many_requests')],
    ['a network error', NETWORK_ERROR],
  ])('shows the single error message after %s and keeps the form (French)', async (_what, answer) => {
    stubPortalApi('resend-account-activation-email', answer);
    const french = (await import('./locales/fr.json')).error;
    await renderPage('/resend-account-activation-email?email=anna%40example.ch', 'fr');
    await userEvent.click(screen.getByRole('button', { name: /^Envoyer/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(french);
    expect(screen.getByRole('textbox')).toHaveValue('anna@example.ch');
  });

  it('links to login and register, keeping the query', async () => {
    stubPortalApi('resend-account-activation-email', SENT);
    await renderPage(
      '/resend-account-activation-email?subdomain=demo&requestId=r1&reason=email_not_verified',
    );
    const login = screen.getByRole('link', { name: 'Back to sign-in' });
    const register = screen.getByRole('link', { name: 'Not registered yet? Register' });
    expect(pathOf(login)).toBe('/login');
    expect(pathOf(register)).toBe('/register');
    expect(queryOf(login)).toEqual({ subdomain: 'demo', requestId: 'r1' });
    expect(queryOf(register)).toEqual({ subdomain: 'demo', requestId: 'r1' });
  });
});
