import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../test/render-page';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stubProviderAnswer(body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('login page', () => {
  it('posts e-mail, password, request id and username type to the provider', async () => {
    const { container } = await renderPage('/login?requestId=req-1');
    const form = container.querySelector('form')!;
    expect(form.getAttribute('action')).toBe('http://provider.test/login-srv/login');
    expect(form.getAttribute('method')).toBe('post');
    expect(screen.getByLabelText(/E-mail address/)).toHaveAttribute('name', 'username');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('name', 'password');
    expect(container.querySelector('input[name="requestId"]')).toHaveValue('req-1');
    expect(container.querySelector('input[name="username_type"]')).toHaveValue('email');
  });

  it('shows the translated message for a known error and never the description', async () => {
    await renderPage(
      '/login?requestId=r&error=invalid_username_password&error_description=<b>evil</b>',
      'de',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Benutzername oder Passwort ist falsch');
    expect(document.body).not.toHaveTextContent('evil');
  });

  it('shows the default message for an unknown error code', async () => {
    await renderPage('/login?requestId=r&error=something_else', 'fr');
    expect(screen.getByRole('alert')).toHaveTextContent('Une erreur s’est produite lors de la connexion');
  });

  it('prefills the e-mail from username and trims what is typed', async () => {
    await renderPage('/login?requestId=r&username=anna%40example.ch');
    const email = screen.getByLabelText(/E-mail address/);
    expect(email).toHaveValue('anna@example.ch');
    await userEvent.clear(email);
    await userEvent.type(email, '  bob@example.ch ');
    expect(email).toHaveValue('bob@example.ch');
  });

  it('requires both fields, says so at the fields and focuses the first', async () => {
    const fetchMock = stubProviderAnswer({ success: true, data: { exist: true } });
    await renderPage('/login?requestId=r');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Please enter your e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password.')).toBeInTheDocument();
    expect(screen.getByLabelText(/E-mail address/)).toHaveFocus();
    expect(screen.getByLabelText(/E-mail address/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks the user at the provider, then submits the form natively', async () => {
    const fetchMock = stubProviderAnswer({ success: true, status: 200, data: { exist: true } });
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    await renderPage('/login?requestId=req-7');
    await userEvent.type(screen.getByLabelText(/E-mail address/), 'anna@example.ch');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
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
    stubProviderAnswer({ success: false, status: 404, error: { code: 10301 } });
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    await renderPage('/login?requestId=req-7');
    await userEvent.type(screen.getByLabelText(/E-mail address/), 'nobody@example.ch');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(submit).toHaveBeenCalledOnce());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says so instead of posting when the page has no request id', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    await renderPage('/login');
    await userEvent.type(screen.getByLabelText(/E-mail address/), 'anna@example.ch');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('opened without a sign-in request');
    expect(submit).not.toHaveBeenCalled();
  });
});

describe('routes', () => {
  it('redirects / to /login keeping the query', async () => {
    await renderPage('/?requestId=abc', 'it');
    expect(screen.getByRole('heading', { name: 'Accesso' })).toBeInTheDocument();
    expect(document.querySelector('input[name="requestId"]')).toHaveValue('abc');
  });

  it('shows a translated not-found page for unknown paths', async () => {
    await renderPage('/nope', 'de');
    expect(screen.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeInTheDocument();
  });
});
