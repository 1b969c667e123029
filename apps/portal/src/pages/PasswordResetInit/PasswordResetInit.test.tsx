import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assignLocation } from '../../hooks/browser-location';
import { focusedSummary } from '../../test/error-summary';
import { errorAnswer, NETWORK_ERROR, pathOf, pendingAnswer, queryOf, stubPortalApi } from '../../test/fetch';
import { testTenant } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';

// Without a request id the app may send the visitor to the customer's portal: not in a test.
vi.mock('../../hooks/browser-location', () => ({
  assignLocation: vi.fn(),
  currentLocation: () => ({ href: window.location.href, origin: window.location.origin }),
}));

const STARTED = { success: true, status: 200, data: {} };

beforeEach(() => {
  window.sessionStorage.clear();
  vi.mocked(assignLocation).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const email = () => screen.getByLabelText(/^Email address/);

describe('password-reset-init page', () => {
  it('without a request id says so and shows no form (German)', async () => {
    // The provider gave the server no request, and the tenant is flagged to stay (spec §2).
    const { sent } = stubPortalApi('password-reset-initiate', STARTED);
    const flagged = { ...testTenant, flags: { ...testTenant.flags, skipFreshRequestIdRedirect: true } };
    await renderPage('/password-reset-init?email=anna%40example.ch', 'de', flagged, {});
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Diese Seite muss über die Anmeldeseite Ihres Portals',
    );
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(sent()).toEqual([]);
  });

  it('keeps the form and the e-mail while the provider is away, and says so', async () => {
    stubPortalApi('password-reset-initiate', STARTED);
    await renderPage('/password-reset-init?email=anna%40example.ch', 'it', testTenant, {
      notice: 'provider_unreachable',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Il servizio di accesso non è raggiungibile');
    expect(screen.getByRole('textbox')).toHaveValue('anna@example.ch');
  });

  it('validates only the e-mail, on blur and on submit', async () => {
    const { sent } = stubPortalApi('password-reset-initiate', STARTED);
    await renderPage('/password-reset-init?requestId=r1');
    await userEvent.click(email());
    await userEvent.tab();
    expect(await screen.findByText('Please enter your email address.')).toBeInTheDocument();
    await userEvent.type(email(), 'anna@');
    await userEvent.tab();
    expect(await screen.findByText('The email address format is invalid.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect((await focusedSummary()).messages).toEqual(['The email address format is invalid.']);
    expect(sent()).toEqual([]);
  });

  it.each(['known@example.ch', 'nobody@example.ch'])(
    'sends request id, e-mail, LINK, email and the tenant, then shows the same success for %s',
    async (address) => {
      const pending = pendingAnswer();
      const { sent } = stubPortalApi('password-reset-initiate', pending.promise);
      await renderPage('/password-reset-init?requestId=r1');
      await userEvent.type(email(), ` ${address.toUpperCase()} `);
      await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
      expect(email()).toBeDisabled();
      pending.settle(Response.json(STARTED));
      expect(await screen.findByRole('status')).toHaveTextContent(
        'If an account exists for this address, we have sent you a link to set a new password.',
      );
      // A slow provider can leave two e-mails; only the newest link works.
      expect(screen.getByRole('status')).toHaveTextContent('use the link in the newest one');
      expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
      expect(sent()).toEqual([
        { requestId: 'r1', email: address, processingType: 'LINK', resetMedium: 'email', subdomain: 'demo' },
      ]);
    },
  );

  it('prefills the e-mail and shows the success in Italian', async () => {
    stubPortalApi('password-reset-initiate', STARTED);
    const italian = (await import('./locales/it.json')).success;
    await renderPage('/password-reset-init?requestId=r1&email=anna%40example.ch', 'it');
    expect(screen.getByRole('textbox')).toHaveValue('anna@example.ch');
    await userEvent.click(screen.getByRole('button'));
    // The link's lifetime as the configuration sets it (issue 25), in Italian.
    expect(await screen.findByRole('status')).toHaveTextContent(
      italian.replace('{{resetLinkLifetime}}', '30 minuti'),
    );
  });

  it('keeps the form with the mapped error, the default for an unknown code or no answer', async () => {
    stubPortalApi('password-reset-initiate', errorAnswer(429, 'too_many_requests'));
    const { unmount } = await renderPage('/password-reset-init?requestId=r1&email=anna%40example.ch');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts.');
    expect(email()).toBeEnabled();
    unmount();

    stubPortalApi('password-reset-initiate', NETWORK_ERROR);
    await renderPage('/password-reset-init?requestId=r1&email=anna%40example.ch');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The link could not be sent.');
  });

  it('shows the error from the query through the allow-list', async () => {
    stubPortalApi('password-reset-initiate', STARTED);
    await renderPage('/password-reset-init?requestId=r1&error=%3Cscript%3E');
    expect(screen.getByRole('alert')).toHaveTextContent('The link could not be sent.');
    expect(document.body).not.toHaveTextContent('<script>');
  });

  it('links back to login keeping the query', async () => {
    stubPortalApi('password-reset-initiate', STARTED);
    await renderPage('/password-reset-init?requestId=r1&subdomain=demo');
    const login = screen.getByRole('link', { name: 'Back to sign-in' });
    expect(pathOf(login)).toBe('/login');
    expect(queryOf(login)).toEqual({ requestId: 'r1', subdomain: 'demo' });
  });
});
