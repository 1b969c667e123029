import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { App } from '../../app/App';
import { Root } from '../../app/Root';
import { matchPageRoute } from '../../app/routes';
import { assignLocation } from '../../hooks/browser-location';
import { locales } from '../../i18n/resources';
import { focusedSummary } from '../../test/error-summary';
import { errorAnswer, pathOf, pendingAnswer, queryOf, stubPortalApi } from '../../test/fetch';
import { testConfig, testTenant } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';

// jsdom cannot navigate; the page's own origin is the test's.
vi.mock('../../hooks/browser-location', () => ({
  assignLocation: vi.fn(),
  currentLocation: () => ({ href: 'http://portal.test/password-set', origin: 'http://portal.test' }),
}));

const PASSWORD = 'Neues-Passw0rt!';
const LINK = '/password-set?requestId=r1&rprq=reset-1&exchangeid=ex-1&subdomain=demo&email=anna%40example.ch';
const saved = (redirect_uri?: string) => ({ success: true, status: 200, data: { redirect_uri } });

beforeEach(() => {
  window.sessionStorage.clear();
  vi.mocked(assignLocation).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const password = () => screen.getByLabelText(/^New password/);
const confirmation = () => screen.getByLabelText(/^Repeat new password/);

async function submitNewPassword() {
  await userEvent.type(password(), PASSWORD);
  await userEvent.type(confirmation(), PASSWORD);
  await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
}

describe('password-set page: the link', () => {
  it.each([
    ['requestId', '/password-set?rprq=reset-1&exchangeid=ex-1'],
    ['resetRequestId', '/password-set?requestId=r1&exchangeid=ex-1'],
    ['exchangeId', '/password-set?requestId=r1&rprq=reset-1'],
  ])('names the missing parameter %s and shows no form', async (name, url) => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    await renderPage(url);
    expect(screen.getByRole('alert')).toHaveTextContent(`the parameter ${name} is missing`);
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeInTheDocument();
    expect(sent()).toEqual([]);
  });

  it("takes the exchange id as cidaas's hosted-page example writes it (exchangeId) too", async () => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    await renderPage('/password-set?requestId=r1&rprq=reset-1&exchangeId=ex-2');
    await submitNewPassword();
    await waitFor(() =>
      expect(sent()).toEqual([expect.objectContaining({ resetRequestId: 'reset-1', exchangeId: 'ex-2' })]),
    );
  });

  it('names it in German too', async () => {
    stubPortalApi('password-reset-set-new', saved());
    await renderPage('/password-set?requestId=r1&rprq=reset-1', 'de');
    expect(screen.getByRole('alert')).toHaveTextContent('Der Parameter exchangeId fehlt');
  });
});

describe('password-set page: a reload (issue 28)', () => {
  /** Opens the link, waits until its one-time ids have left the address, and closes the page. */
  async function openLinkAndLeave(url: string) {
    const { currentUrl, unmount } = await renderPage(url);
    await waitFor(() => expect(currentUrl()).not.toMatch(/rprq|exchange/i));
    const address = currentUrl();
    unmount();
    return address;
  }

  it('keeps the form after a reload and sends the ids the link brought', async () => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    const reloaded = await openLinkAndLeave(LINK);
    expect(reloaded).toBe('/password-set?requestId=r1&subdomain=demo&email=anna%40example.ch');
    const { currentUrl } = await renderPage(reloaded);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await submitNewPassword();
    await waitFor(() =>
      expect(sent()).toEqual([
        {
          resetRequestId: 'reset-1',
          exchangeId: 'ex-1',
          password: PASSWORD,
          confirmpassword: PASSWORD,
          requestId: 'r1',
          email: 'anna@example.ch',
        },
      ]),
    );
    // …and they never come back into the address.
    expect(currentUrl()).not.toMatch(/rprq|exchange/i);
  });

  it('takes the ids of the link the tab arrived with last', async () => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    await openLinkAndLeave(LINK);
    const reloaded = await openLinkAndLeave(
      '/password-set?requestId=r2&rprq=reset-2&exchangeId=ex-2&subdomain=demo',
    );
    await renderPage(reloaded);
    await submitNewPassword();
    await waitFor(() =>
      expect(sent()).toEqual([
        expect.objectContaining({ resetRequestId: 'reset-2', exchangeId: 'ex-2', requestId: 'r2' }),
      ]),
    );
  });

  it('forgets the link once the new password is saved', async () => {
    stubPortalApi('password-reset-set-new', saved());
    const reloaded = await openLinkAndLeave(LINK);
    const { unmount } = await renderPage(reloaded);
    await submitNewPassword();
    expect(await screen.findByRole('heading', { name: 'Password saved' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem('concierge.resetLink')).toBeNull();
    unmount();
    await renderPage(reloaded);
    expect(screen.getByRole('alert')).toHaveTextContent('the parameter resetRequestId is missing');
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
  });

  it.each([
    ['requestId', '/password-set?subdomain=demo'],
    ['resetRequestId', '/password-set?requestId=r1&subdomain=demo'],
  ])('still names the missing parameter %s when the tab keeps no link either', async (name, url) => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    await renderPage(url);
    expect(screen.getByRole('alert')).toHaveTextContent(`the parameter ${name} is missing`);
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
    expect(sent()).toEqual([]);
  });

  it('names the same missing parameter after a reload of an incomplete link', async () => {
    stubPortalApi('password-reset-set-new', saved());
    const reloaded = await openLinkAndLeave('/password-set?requestId=r1&rprq=reset-1&subdomain=demo');
    await renderPage(reloaded);
    expect(screen.getByRole('alert')).toHaveTextContent('the parameter exchangeId is missing');
  });

  it("never lends the link to another tenant's page in the same tab", async () => {
    stubPortalApi('password-reset-set-new', saved());
    await openLinkAndLeave(LINK);
    const other = { ...testTenant, subdomain: 'r5', design: { ...testTenant.design, subdomain: 'r5' } };
    await renderPage('/password-set?requestId=r1&subdomain=r5', 'en', other);
    expect(screen.getByRole('alert')).toHaveTextContent('the parameter resetRequestId is missing');
  });

  it("shows the missing parameter without JavaScript only, and the form once the script has found the tab's link", async () => {
    stubPortalApi('password-reset-set-new', saved());
    const reloaded = await openLinkAndLeave(LINK);
    const { container, recoverableErrors } = serverRendered(reloaded);
    // The server cannot know the tab's link: its message is for a browser without JavaScript.
    const noscript = container.querySelector('noscript');
    expect(noscript?.innerHTML).toContain('the parameter resetRequestId is missing');
    expect(container.querySelector('input[type="password"]')).toBeNull();
    await hydrate(container, reloaded);
    expect(await screen.findByLabelText(/^New password/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(recoverableErrors).toEqual([]);
  });

  it('names the missing parameter once hydrated when the tab keeps no link', async () => {
    stubPortalApi('password-reset-set-new', saved());
    const url = '/password-set?requestId=r1&subdomain=demo';
    const { container, recoverableErrors } = serverRendered(url);
    expect(container.querySelector('noscript')?.innerHTML).toContain(
      'the parameter resetRequestId is missing',
    );
    await hydrate(container, url);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('the parameter resetRequestId is missing'),
    );
    expect(container.querySelector('noscript')).toBeNull();
    expect(recoverableErrors).toEqual([]);
  });

  it('renders an incomplete link that brings its one-time ids as before, message and all, on the server', () => {
    const { container } = serverRendered('/password-set?requestId=r1&rprq=reset-1&subdomain=demo');
    expect(container.querySelector('noscript')).toBeNull();
    expect(container.querySelector('[role="alert"]')).toHaveTextContent(
      'the parameter exchangeId is missing',
    );
  });
});

const pageState = {
  config: testConfig,
  tenant: testTenant,
  language: 'en' as const,
  messages: locales.en,
  signInRequest: undefined,
};

let hydrated: { unmount(): void } | undefined;
afterEach(() => {
  hydrated?.unmount();
  hydrated = undefined;
  document.body.innerHTML = '';
});

const recoverableErrors: unknown[] = [];

/** The page as the server renders it, in the document as a browser shows it before the script runs. */
function serverRendered(url: string) {
  recoverableErrors.length = 0;
  const container = document.createElement('div');
  container.innerHTML = renderToString(
    <Root state={pageState} themeStylesInHead>
      <Router ssrPath={url}>
        <App />
      </Router>
    </Root>,
  );
  document.body.append(container);
  return { container, recoverableErrors };
}

/** The browser's script taking over the server's HTML (entry-client.tsx). */
async function hydrate(container: HTMLElement, url: string) {
  await matchPageRoute('/password-set').page.preload();
  // As in the browser: the router reads the address itself.
  window.history.replaceState(null, '', url);
  await act(async () => {
    const root = hydrateRoot(
      container,
      <Root state={pageState} themeStylesInHead>
        <App />
      </Root>,
      { onRecoverableError: (error) => recoverableErrors.push(error) },
    );
    hydrated = { unmount: () => root.unmount() };
  });
}

describe('password-set page: validation', () => {
  it('checks password and confirmation on blur and on submit', async () => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    await renderPage(LINK);
    await userEvent.click(password());
    await userEvent.tab();
    expect(screen.getByText('Please enter a password.')).toBeInTheDocument();
    await userEvent.type(password(), 'kurz');
    await userEvent.tab();
    expect(screen.getByText(/The password must be 6 to 39 characters long and include/)).toBeInTheDocument();
    await userEvent.clear(password());
    await userEvent.type(password(), PASSWORD);
    await userEvent.type(confirmation(), 'Anderes-Passw0rt!');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect((await focusedSummary()).messages).toEqual(['The two passwords do not match.']);
    expect(confirmation()).toHaveAttribute('aria-invalid', 'true');
    expect(sent()).toEqual([]);
  });
});

describe('password-set page: submit', () => {
  it('sends the link ids with the passwords and follows a redirect onto the tenant portal with the subdomain', async () => {
    const pending = pendingAnswer();
    const { sent } = stubPortalApi('password-reset-set-new', pending.promise);
    await renderPage(LINK);
    await submitNewPassword();
    expect(password()).toBeDisabled();
    expect(confirmation()).toBeDisabled();
    pending.settle(Response.json(saved('http://customer.test/login?x=1')));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledOnce());
    expect(assignLocation).toHaveBeenCalledWith('http://customer.test/login?x=1&subdomain=demo');
    expect(sent()).toEqual([
      {
        resetRequestId: 'reset-1',
        exchangeId: 'ex-1',
        password: PASSWORD,
        confirmpassword: PASSWORD,
        requestId: 'r1',
        email: 'anna@example.ch',
      },
    ]);
  });

  it('takes the one-time reset ids out of the address bar once read, and still sends them', async () => {
    const { sent } = stubPortalApi('password-reset-set-new', saved());
    const { currentUrl } = await renderPage(
      '/password-set?requestId=r1&rprq=reset-1&exchangeId=ex-1&exchangeid=ex-1&subdomain=demo&email=anna%40example.ch',
    );
    await waitFor(() =>
      expect(currentUrl()).toBe('/password-set?requestId=r1&subdomain=demo&email=anna%40example.ch'),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await submitNewPassword();
    await waitFor(() =>
      expect(sent()).toEqual([expect.objectContaining({ resetRequestId: 'reset-1', exchangeId: 'ex-1' })]),
    );
  });

  it('follows a redirect onto the portal itself', async () => {
    stubPortalApi('password-reset-set-new', saved('/login?requestId=r2'));
    await renderPage(LINK);
    await submitNewPassword();
    await waitFor(() =>
      expect(assignLocation).toHaveBeenCalledWith('http://portal.test/login?requestId=r2&subdomain=demo'),
    );
  });

  it.each([
    'https://evil.example.com/login',
    '//evil.example.com/login',
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
  ])('refuses the redirect %s and shows the success page instead', async (redirect) => {
    stubPortalApi('password-reset-set-new', saved(redirect));
    await renderPage(LINK);
    await submitNewPassword();
    expect(await screen.findByRole('heading', { name: 'Password saved' })).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      'http://customer.test/login',
    );
  });

  it('shows the success page when the answer names no redirect', async () => {
    stubPortalApi('password-reset-set-new', saved());
    await renderPage(LINK, 'de');
    await submitNewPassword_de();
    expect(await screen.findByRole('heading', { name: 'Passwort gespeichert' })).toBeInTheDocument();
  });

  it('keeps the form with the mapped error and offers a new link when the link is no longer valid', async () => {
    stubPortalApi('password-reset-set-new', errorAnswer(400, 'link_invalid'));
    await renderPage(LINK);
    await submitNewPassword();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link has already been used or has expired.');
    expect(password()).toBeEnabled();
    const newLink = screen.getByRole('link', { name: 'Request a new link' });
    expect(pathOf(newLink)).toBe('/password-reset-init');
    expect(queryOf(newLink)).toMatchObject({ requestId: 'r1', subdomain: 'demo', email: 'anna@example.ch' });
    expect(queryOf(newLink)).not.toHaveProperty('rprq');
    expect(queryOf(newLink)).not.toHaveProperty('exchangeid');
  });

  it.each([
    ['password_mismatch', 'The two passwords do not match.'],
    ['password_too_weak', 'The sign-in service did not accept this password.'],
  ])("shows the provider's refusal %s with its own message, and keeps the form", async (code, message) => {
    stubPortalApi('password-reset-set-new', errorAnswer(400, code));
    await renderPage(LINK);
    await submitNewPassword();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(password()).toBeEnabled();
  });

  it('shows the default error for an unknown code (French)', async () => {
    stubPortalApi('password-reset-set-new', errorAnswer(500, 'boom'));
    const french = (await import('./locales/fr.json')).error.default;
    await renderPage(LINK, 'fr');
    await userEvent.type(screen.getByLabelText(/^Nouveau mot de passe/), PASSWORD);
    await userEvent.type(screen.getByLabelText(/^Confirmer le nouveau mot de passe/), PASSWORD);
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(french);
    expect(screen.queryByRole('link', { name: 'Demander un nouveau lien' })).not.toBeInTheDocument();
  });
});

async function submitNewPassword_de() {
  await userEvent.type(screen.getByLabelText(/^Neues Passwort \*/), PASSWORD);
  await userEvent.type(screen.getByLabelText(/^Neues Passwort wiederholen/), PASSWORD);
  await userEvent.click(screen.getByRole('button', { name: 'Passwort speichern' }));
}
