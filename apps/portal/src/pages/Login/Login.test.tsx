import { FAILED_LOGINS_BEFORE_LOCK, LANGUAGES } from '@concierge/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchFailedLoginCounter } from '../../api/failed-login-counter';
import { assignLocation } from '../../hooks/browser-location';
import { locales } from '../../i18n/resources';
import { focusedSummary } from '../../test/error-summary';
import { pathOf, pendingAnswer, queryOf } from '../../test/fetch';
import { testTenant } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { clientInfoAnswer, type FetchRoutes, stubFetch } from '../../test/stub-fetch';

vi.mock('../../hooks/browser-location', () => ({
  assignLocation: vi.fn(),
  currentLocation: () => ({ href: window.location.href, origin: window.location.origin }),
}));

// Unchanged, only watched: a test can await the page's own read of the counter.
vi.mock('../../api/failed-login-counter', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/failed-login-counter')>();
  return { ...actual, fetchFailedLoginCounter: vi.fn(actual.fetchFailedLoginCounter) };
});

const provider: FetchRoutes = {
  '/public-srv/public/': () => clientInfoAnswer(),
  'POST /useractions-srv/userexistence/': () => ({ success: true, status: 200, data: { exist: true } }),
  '/user-login-failed-counter': () => [{ counter: 0 }],
  '/public-srv/tenantinfo/basic': () => ({ success: true, status: 200, data: { tenant_name: 'Concierge' } }),
};

let submit: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
  submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
  window.sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function fillAndSubmit(email: string, password: string) {
  await userEvent.type(screen.getByLabelText(/Email address/), email);
  await userEvent.type(screen.getByLabelText(/^Password/), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login page', () => {
  it('posts e-mail, password, request id and username type to the provider', async () => {
    stubFetch(provider);
    const { container } = await renderPage('/login?requestId=req-1');
    const form = container.querySelector('form')!;
    await waitFor(() => expect(form.getAttribute('action')).toBe('http://provider.test/login-srv/login'));
    expect(form.getAttribute('method')).toBe('post');
    expect(screen.getByLabelText(/Email address/)).toHaveAttribute('name', 'username');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('name', 'password');
    expect(container.querySelector('input[name="requestId"]')).toHaveValue('req-1');
    expect(container.querySelector('input[name="username_type"]')).toHaveValue('email');
  });

  it('shows the translated message for a known error and never the description', async () => {
    stubFetch(provider);
    await renderPage('/login?requestId=r&error=access_denied&error_description=<b>evil</b>', 'de');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Für Sie ist noch kein Zugang zu diesem Portal eingerichtet',
    );
    expect(document.body).not.toHaveTextContent('evil');
  });

  it('shows the default message for an unknown error code', async () => {
    stubFetch(provider);
    await renderPage('/login?requestId=r&error=something_else', 'fr');
    expect(screen.getByRole('alert')).toHaveTextContent('Une erreur s’est produite lors de la connexion');
  });

  it.each([
    [0, 'Incorrect email address or password.'],
    [1, 'You have two more attempts'],
    [2, 'You have one more attempt'],
    [3, 'Your account is locked.'],
    [7, 'Your account is locked.'],
  ])('after a wrong password with the failed counter at %i says "%s"', async (counter, message) => {
    const fetchMock = stubFetch({ ...provider, '/user-login-failed-counter': () => [{ counter }] });
    await renderPage(
      '/login?requestId=r&subdomain=demo&error=invalid_username_password&username=anna%40example.ch',
    );
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    const counterCall = fetchMock.mock.calls.find(([url]) =>
      String(url).includes('user-login-failed-counter'),
    );
    expect(String(counterCall?.[0])).toBe(
      'http://portal.test/user-login-failed-counter?subdomain=demo&email=anna%40example.ch',
    );
  });

  it('shows the same after a failure of a known user (sub, q) and of an unknown one, as cidaas sends them', async () => {
    const cidaas =
      '/login?groupname=default&lang=&view_type=login&requestId=r&error=invalid_username_password&username=anna%40example.ch&username_type=email';
    const shown: string[] = [];
    for (const extra of [
      '&sub=6f1c2d3e-aaaa&q=6f1c****',
      '&error_description=Given+username+or+password+is+invalid',
    ]) {
      stubFetch({ ...provider, '/user-login-failed-counter': () => [{ counter: 1 }] });
      const { unmount } = await renderPage(cidaas + extra);
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('You have two more attempts'));
      shown.push(screen.getByRole('alert').textContent ?? '');
      expect(screen.queryByText(/Given username/)).not.toBeInTheDocument();
      unmount();
      vi.unstubAllGlobals();
    }
    expect(shown[0]).toBe(shown[1]);
  });

  it('tells a locked account in four parts, in one alert: what, why, a new password (a link) or the property manager', async () => {
    stubFetch({ ...provider, '/user-login-failed-counter': () => [{ counter: 3 }] });
    const contact = {
      name: 'Demo Immobilien AG',
      phone: '+41 44 123 45 67',
      email: 'verwaltung@demo-immobilien.example',
      officeHours: { de: 'Montag bis Freitag, 8–12 Uhr', fr: '-', it: '-', en: '-' },
    };
    await renderPage(
      '/login?requestId=r&subdomain=demo&error=invalid_username_password&username=anna%40example.ch',
      'de',
      { ...testTenant, contact },
    );
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Ihr Konto ist gesperrt.'));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    const alert = screen.getByRole('alert');
    // What happened — the count the server locks at — and why.
    expect(alert).toHaveTextContent(
      `Das Passwort für Ihr Konto wurde ${FAILED_LOGINS_BEFORE_LOCK}-mal hintereinander falsch eingegeben.`,
    );
    for (const language of LANGUAGES) expect(locales[language].login.locked.happened).toContain('{{count}}');
    expect(alert).toHaveTextContent('Um Ihr Konto vor fremdem Zugriff zu schützen, ist es jetzt gesperrt.');
    // What to do: a real link to a new password, keeping the page's query as the other links do …
    const setNewPassword = within(alert).getByRole('link', { name: 'Neues Passwort festlegen' });
    expect(pathOf(setNewPassword)).toBe('/password-reset-init');
    expect(queryOf(setNewPassword)).toEqual({ requestId: 'r', subdomain: 'demo', email: 'anna@example.ch' });
    // … or the property manager, with the registry's contact.
    expect(alert).toHaveTextContent('Sie können sich auch an Ihre Verwaltung wenden.');
    expect(alert).toHaveTextContent('Demo Immobilien AG');
    expect(within(alert).getByRole('link', { name: '+41 44 123 45 67' })).toHaveAttribute(
      'href',
      'tel:+41441234567',
    );
    expect(within(alert).getByRole('link', { name: contact.email })).toHaveAttribute(
      'href',
      `mailto:${contact.email}`,
    );
    expect(alert).toHaveTextContent('Montag bis Freitag, 8–12 Uhr');
    expect(alert).toHaveFocus();
    // The way out through "forgot password" stays below the form.
    expect(screen.getByRole('link', { name: 'Passwort vergessen oder Konto gesperrt?' })).toBeInTheDocument();
  });

  it.each([
    [
      'fr',
      'Un mot de passe incorrect a été saisi 3 fois de suite',
      'Définir un nouveau mot de passe',
      'gérance',
    ],
    [
      'it',
      'inserita una password errata 3 volte di seguito',
      'Impostare una nuova password',
      'amministrazione',
    ],
    ['en', 'An incorrect password was entered 3 times in a row', 'Set a new password', 'property manager'],
  ] as const)(
    'tells it in %s too, without contact lines where the registry has none',
    async (language, happened, link, manager) => {
      stubFetch({ ...provider, '/user-login-failed-counter': () => [{ counter: 4 }] });
      await renderPage(
        '/login?requestId=r&error=invalid_username_password&username=anna%40example.ch',
        language,
      );
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(happened));
      const alert = screen.getByRole('alert');
      expect(alert).toHaveTextContent(manager);
      expect(
        within(alert)
          .getAllByRole('link')
          .map((element) => element.textContent),
      ).toEqual([link]);
    },
  );

  it('keeps the plain wrong-password message when the counter cannot be had', async () => {
    const counter = pendingAnswer();
    const fetchMock = stubFetch({ ...provider, '/user-login-failed-counter': () => counter.promise });
    await renderPage('/login?requestId=r&error=invalid_username_password&username=anna%40example.ch');
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        'http://portal.test/user-login-failed-counter?subdomain=demo&email=anna%40example.ch',
        expect.anything(),
      ),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Incorrect email address or password.');
    await act(async () => {
      counter.settle(new Response('', { status: 503 }));
      // The page refines its message as soon as its read of the counter settles; here with none.
      await expect(vi.mocked(fetchFailedLoginCounter).mock.results.at(-1)?.value).resolves.toBeNull();
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Incorrect email address or password.');
  });

  it('prefills the e-mail from username and trims what is typed', async () => {
    stubFetch(provider);
    await renderPage('/login?requestId=r&username=anna%40example.ch');
    const email = screen.getByLabelText(/Email address/);
    expect(email).toHaveValue('anna@example.ch');
    await userEvent.clear(email);
    await userEvent.type(email, '  bob@example.ch ');
    expect(email).toHaveValue('bob@example.ch');
  });

  it('requires both fields, says so at the fields and in the summary, which takes the focus', async () => {
    const fetchMock = stubFetch(provider);
    await renderPage('/login?requestId=r');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const { messages } = await focusedSummary();
    expect(messages).toEqual(['Please enter your email address.', 'Please enter your password.']);
    expect(screen.getByLabelText(/Email address/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('userexistence'))).toBe(false);
  });

  it('checks each field when it is left (spec §5), with the same messages, and never the e-mail format', async () => {
    const fetchMock = stubFetch(provider);
    await renderPage('/login?requestId=r');
    const email = screen.getByLabelText(/Email address/);
    const password = screen.getByLabelText(/^Password/);
    await userEvent.click(email);
    await userEvent.tab();
    expect(await screen.findByText('Please enter your email address.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Please enter your password.')).not.toBeInTheDocument();
    await userEvent.click(password);
    // Left by a press elsewhere: checked once the press is over.
    await userEvent.click(document.body);
    expect(await screen.findByText('Please enter your password.')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    // A shown message goes as soon as the field is right; login asks for no particular format.
    await userEvent.type(email, 'anna');
    await waitFor(() =>
      expect(screen.queryByText('Please enter your email address.')).not.toBeInTheDocument(),
    );
    await userEvent.click(email);
    await userEvent.tab();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByText('The email address format is invalid.')).not.toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid');
    // What the form posts is unchanged.
    expect(email).toHaveAttribute('name', 'username');
    expect(password).toHaveAttribute('name', 'password');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('userexistence'))).toBe(false);
  });

  it('checks the user at the provider, then submits the form natively', async () => {
    const fetchMock = stubFetch(provider);
    await renderPage('/login?requestId=req-7');
    await fillAndSubmit('anna@example.ch', 'secret');
    await waitFor(() => expect(submit).toHaveBeenCalledOnce());
    expect(fetchMock).toHaveBeenCalledWith(
      'http://provider.test/useractions-srv/userexistence/req-7',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ email: 'anna@example.ch', requestId: 'req-7' }),
      }),
    );
  });

  it('submits for an unknown e-mail too, so the page reveals nothing about accounts', async () => {
    stubFetch({
      ...provider,
      'POST /useractions-srv/userexistence/': () => ({ success: false, status: 404, error: { code: 10301 } }),
    });
    await renderPage('/login?requestId=req-7');
    await fillAndSubmit('nobody@example.ch', 'secret');
    await waitFor(() => expect(submit).toHaveBeenCalledOnce());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the sign-in request behind the page', () => {
  const fromServer = { requestId: 'from-server', clientInfo: { client_name: 'Demo' } };
  const providerCalls = (fetchMock: ReturnType<typeof stubFetch>) =>
    fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('http://provider.test'));

  it('works from the first frame with the request the server rendered it with, the address taking it', async () => {
    const fetchMock = stubFetch(provider);
    const { container } = await renderPage('/login?subdomain=demo&requestId=expired', 'en', testTenant, {
      signInRequest: fromServer,
    });
    const form = container.querySelector('form')!;
    expect(form.getAttribute('action')).toBe('http://provider.test/login-srv/login');
    expect(container.querySelector('input[name="requestId"]')).toHaveValue('from-server');
    // The address takes the server's request id in place of the expired one: a reload keeps it.
    const link = await screen.findByRole('link', { name: /Forgot your password/ });
    await waitFor(() =>
      expect(link.getAttribute('href')).toBe('/password-reset-init?subdomain=demo&requestId=from-server'),
    );
    expect(providerCalls(fetchMock)).toEqual([]);
  });

  it.each([
    '/login?subdomain=demo',
    '/register?subdomain=demo',
    '/password-reset-init?subdomain=demo',
    '/resend-account-activation-email?subdomain=demo',
    '/verification-complete?subdomain=demo',
    '/password-set?subdomain=demo',
    '/password-set-success?subdomain=demo',
  ])('asks the provider nothing after load on %s', async (url) => {
    const fetchMock = stubFetch({ ...provider, '/': () => ({}) });
    await renderPage(url);
    await screen.findByRole('heading', { level: 1 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(providerCalls(fetchMock)).toEqual([]);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('says the provider is away, and sends the form to the server with the e-mail while it has no request', async () => {
    const fetchMock = stubFetch(provider);
    const { container } = await renderPage('/login?subdomain=demo&error=not_sent', 'de', testTenant, {
      notice: 'provider_unreachable',
    });
    // The notice says it all: not also that the last form was not sent.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      locales.de.common.providerUnreachable,
    ]);
    expect(container.querySelector('form')!.getAttribute('action')).toBe('/login?subdomain=demo');
    await userEvent.type(screen.getByLabelText(/E-Mail-Adresse/), 'anna@example.ch');
    await userEvent.type(container.querySelector('input[name="password"]')!, 'secret{Enter}');
    await waitFor(() => expect(submit).toHaveBeenCalledOnce());
    expect(providerCalls(fetchMock)).toEqual([]);
  });

  it('asks once more after load when it was rendered with the provider away, and drops the notice when it is back', async () => {
    stubFetch({
      ...provider,
      '/sign-in-request.json': () => ({ signInRequest: { requestId: 'back-again', clientInfo: {} } }),
    });
    const { container } = await renderPage('/login?subdomain=demo', 'de', testTenant, {
      notice: 'provider_unreachable',
    });
    await waitFor(() => expect(container.querySelector('input[name="requestId"]')).toHaveValue('back-again'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(container.querySelector('form')!.getAttribute('action')).toBe(
      'http://provider.test/login-srv/login',
    );
  });

  it('says that nothing was sent when the server got the form while the provider was away', async () => {
    stubFetch(provider);
    await renderPage('/login?subdomain=demo&error=not_sent&username=anna%40example.ch', 'fr');
    expect(screen.getByRole('alert')).toHaveTextContent(locales.fr.login.error.not_sent);
    expect(screen.getByLabelText(/Adresse e-mail/)).toHaveValue('anna@example.ch');
  });

  it('says so for a tenant flagged to stay when the provider gives no request', async () => {
    stubFetch(provider);
    const tenant = { ...testTenant, flags: { ...testTenant.flags, skipFreshRequestIdRedirect: true } };
    await renderPage('/login', 'en', tenant, {});
    expect(screen.getByRole('alert')).toHaveTextContent('opened without a sign-in request');
  });

  it('posts with a fresh request when the tenant comes back to a tab whose request was used meanwhile', async () => {
    const fetchMock = stubFetch({
      ...provider,
      '/sign-in-request.json': () => ({ signInRequest: { requestId: 'fresh-on-return', clientInfo: {} } }),
    });
    const { container } = await renderPage('/login?subdomain=demo&requestId=used', 'en', testTenant, {
      signInRequest: { requestId: 'used', clientInfo: {} },
    });
    await screen.findByRole('link', { name: /Forgot your password/ });
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() =>
      expect(container.querySelector('input[name="requestId"]')).toHaveValue('fresh-on-return'),
    );
    const asked = fetchMock.mock.calls
      .map(([url]) => String(url))
      .find((url) => url.includes('sign-in-request'));
    expect(asked).toBe('/sign-in-request.json?subdomain=demo&requestId=used&path=%2Flogin');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: /Forgot your password/ }).getAttribute('href')).toBe(
        '/password-reset-init?subdomain=demo&requestId=fresh-on-return',
      ),
    );
  });

  it('drops a subdomain the registry does not know from the query', async () => {
    stubFetch(provider);
    await renderPage('/login?requestId=r4&subdomain=evil.example.com', 'en', {
      ...testTenant,
      isRequested: false,
    });
    const link = await screen.findByRole('link', { name: /Forgot your password/ });
    await waitFor(() => expect(link.getAttribute('href')).toBe('/password-reset-init?requestId=r4'));
  });

  const withClientInfo = (clientInfo: object) => ({ signInRequest: { requestId: 'r1', clientInfo } });

  it('offers registration when the client info enables it', async () => {
    stubFetch(provider);
    await renderPage('/login?requestId=r1', 'en', testTenant, withClientInfo({ registration_enabled: true }));
    expect(screen.getByRole('link', { name: /Register with your registration code/ })).toBeInTheDocument();
  });

  it('hides registration when the client info disables it, whatever the registry says', async () => {
    stubFetch(provider);
    await renderPage(
      '/login?requestId=r1',
      'en',
      testTenant,
      withClientInfo({ registration_enabled: false }),
    );
    expect(screen.getByRole('link', { name: /Forgot your password/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Register/ })).not.toBeInTheDocument();
  });

  // cidaas's client info carries no registration flags (cidaas-facts.md, "Public info").
  it('follows the tenant registry when the client info has no flags, as cidaas sends it', async () => {
    stubFetch(provider);
    const cidaas = withClientInfo({ client_name: 'Demo' });
    const { unmount } = await renderPage('/login?requestId=r1', 'en', testTenant, cidaas);
    expect(screen.getByRole('link', { name: /Register with your registration code/ })).toBeInTheDocument();
    unmount();
    const closed = {
      ...testTenant,
      flags: { ...testTenant.flags, registrationEnabled: false, inviteEnabled: false },
    };
    await renderPage('/login?requestId=r1', 'en', closed, cidaas);
    expect(screen.queryByRole('link', { name: /Register/ })).not.toBeInTheDocument();
  });

  // The counter's answers in turn (the last one repeated): before the post, then after the failure.
  it.each([
    { when: 'once when the count has moved', counts: [1, 2], message: 'You have one more attempt', asks: 1 },
    {
      when: "twice when it has not yet (the server's 5 s wait ended before the attempt's event)",
      counts: [1, 1, 2],
      message: 'You have one more attempt',
      asks: 2,
    },
    {
      when: 'once for a locked account, whose count cannot move',
      counts: [3],
      message: 'Your account is locked.',
      asks: 1,
    },
  ])('asks the counter before it posts, and after the failure $when', async ({ counts, message, asks }) => {
    const answers = [...counts];
    const fetchMock = stubFetch({
      ...provider,
      '/user-login-failed-counter': () => [{ counter: answers.length > 1 ? answers.shift() : answers[0] }],
    });
    await renderPage('/login?requestId=r&subdomain=demo');
    await fillAndSubmit('anna@example.ch', 'secret');
    await waitFor(() => expect(submit).toHaveBeenCalled());
    // …the provider sends the visitor back after a wrong password; the page asks with the count before it.
    await renderPage(
      '/login?requestId=r&subdomain=demo&error=invalid_username_password&username=anna%40example.ch',
    );
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    const counterCalls = fetchMock.mock.calls
      .map(([url]) => String(url))
      .filter((url) => url.includes('user-login-failed-counter'));
    expect(counterCalls[0]).not.toContain('&after=');
    expect(counterCalls.slice(1)).toEqual(
      Array.from({ length: asks }, () => expect.stringContaining(`&after=${counts[0]}`)),
    );
  });

  it('links to the password reset with the entered e-mail and the query kept', async () => {
    stubFetch(provider);
    await renderPage(
      '/login?requestId=r3&subdomain=demo&error=invalid_username_password&username=anna%40example.ch',
    );
    const link = screen.getByRole('link', { name: /Forgot your password/ });
    expect(link.getAttribute('href')).toBe(
      '/password-reset-init?requestId=r3&subdomain=demo&email=anna%40example.ch',
    );
  });
});

describe('routes', () => {
  it('redirects / to /login keeping the query', async () => {
    stubFetch(provider);
    await renderPage('/?requestId=abc', 'it');
    expect(screen.getByRole('heading', { name: 'Accesso' })).toBeInTheDocument();
    expect(document.querySelector('input[name="requestId"]')).toHaveValue('abc');
  });

  it('shows a translated not-found page for unknown paths', async () => {
    stubFetch(provider);
    await renderPage('/nope?requestId=x', 'de');
    expect(screen.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeInTheDocument();
  });
});
