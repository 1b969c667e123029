import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage as renderOnServer } from '../entry-server';
import { locales } from '../i18n/resources';
import { errorAnswer, jsonAnswer, pendingAnswer, stubPortalApi } from '../test/fetch';
import { testConfig, testTenant } from '../test/fixtures';
import { renderPage } from '../test/render-page';
import { clientInfoAnswer, stubFetch } from '../test/stub-fetch';
import { documentTitle, htmlShowsError } from './document-title';

// WCAG 2.2 AA behaviour of issue 12 that lives in the portal's components (the browser test
// e2e/accessibility.spec.ts checks what needs a real layout: axe, reflow, focus rings, the fold).

const provider = {
  '/public-srv/public/': () => clientInfoAnswer(),
  'POST /useractions-srv/userexistence/': () => ({ success: true, status: 200, data: { exist: true } }),
  '/user-login-failed-counter': () => [{ counter: 0 }],
  '/public-srv/tenantinfo/basic': () => ({ success: true, status: 200, data: { tenant_name: 'Concierge' } }),
};

beforeEach(() => {
  window.sessionStorage.clear();
  document.title = '';
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the show-password button (PasswordField)', () => {
  it.each([
    ['de', 'Passwort anzeigen'],
    ['fr', 'Afficher le mot de passe'],
    ['it', 'Mostrare la password'],
    ['en', 'Show password'],
  ] as const)('is in the tab order and named in the page language (%s)', async (language, name) => {
    stubFetch(provider);
    await renderPage('/login?requestId=req-1', language);
    const toggle = screen.getByRole('button', { name });
    expect(toggle).toHaveAttribute('tabindex', '0');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  it('is reached by Tab from the password and shows the password with Space, saying so by aria-pressed', async () => {
    stubFetch(provider);
    const { container } = await renderPage('/login?requestId=req-1');
    const password = container.querySelector<HTMLInputElement>('input[name="password"]')!;
    password.focus();
    await userEvent.tab();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await userEvent.keyboard('{Enter}');
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  it('is the only way a page shows a password field (set in one place)', () => {
    const sources = join(dirname(fileURLToPath(import.meta.url)), '..');
    const offenders = sourceFiles(sources)
      .filter((file) => !file.endsWith('components/PasswordField.tsx') && !/\.test\.tsx?$/.test(file))
      .filter((file) => /<PasswordInput\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(sources, file));
    expect(offenders).toEqual([]);
  });
});

describe('fields that show an error', () => {
  it('marks invalid password fields and the terms checkbox with aria-invalid, described by the message', async () => {
    stubPortalApi('register-user', { success: true, status: 200, data: { sub: 'sub-1' } });
    const { container } = await renderPage('/register');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    const password = container.querySelector<HTMLInputElement>('input[name="new-password"]')!;
    const confirmation = container.querySelector<HTMLInputElement>(
      'input[name="new-password-confirmation"]',
    )!;
    const terms = screen.getByRole('checkbox');
    for (const element of [password, confirmation, terms]) {
      await waitFor(() => expect(element).toHaveAttribute('aria-invalid', 'true'));
      const described = element.getAttribute('aria-describedby')!.split(/\s+/);
      const errorText = described
        .map((id) => document.getElementById(id))
        .find((node) => node?.id.endsWith('-error'));
      expect(errorText, element.getAttribute('name') ?? 'terms').toBeTruthy();
      expect(errorText!.textContent).not.toBe('');
    }
    expect(document.title).toBe('Error: Register – Demo Immobilien AG');
  });

  it('drops aria-invalid and the error title once the input is right', async () => {
    stubFetch(provider);
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const { container } = await renderPage('/login?requestId=req-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const password = container.querySelector<HTMLInputElement>('input[name="password"]')!;
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    await waitFor(() => expect(document.title).toBe('Error: Sign in – Demo Immobilien AG'));
    await userEvent.type(container.querySelector<HTMLInputElement>('input[name="username"]')!, 'a@b.ch');
    await userEvent.type(password, 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(password).not.toHaveAttribute('aria-invalid'));
    await waitFor(() => expect(document.title).toBe('Sign in – Demo Immobilien AG'));
  });
});

describe('a failed sign-in', () => {
  it.each([
    ['de', 'Fehler: Anmelden – Demo Immobilien AG'],
    ['fr', 'Erreur\u00a0: Connexion – Demo Immobilien AG'],
    ['it', 'Errore: Accesso – Demo Immobilien AG'],
    ['en', 'Error: Sign in – Demo Immobilien AG'],
  ] as const)(
    'takes the focus to the message and says "error" in the title, before the tenant’s name (%s)',
    async (language, title) => {
      stubFetch(provider);
      await renderPage('/login?requestId=req-1&error=invalid_username_password', language);
      const alert = screen.getByRole('alert');
      await waitFor(() => expect(alert).toHaveFocus());
      await waitFor(() => expect(document.title).toBe(title));
    },
  );

  it('leaves the plain title without an error: the page’s, then the tenant’s name', async () => {
    stubFetch(provider);
    await renderPage('/login?requestId=req-1');
    await waitFor(() => expect(document.title).toBe('Sign in – Demo Immobilien AG'));
  });
});

describe('the server-rendered title', () => {
  it('is the browser’s: the page’s title (or its error title), then the tenant’s name', () => {
    expect(documentTitle('Anmelden', 'Demo Immobilien AG')).toBe('Anmelden – Demo Immobilien AG');
    expect(documentTitle('Fehler: Anmelden', ' ')).toBe('Fehler: Anmelden');
  });

  it('names the tenant after the page, with and without an error, as the browser does', async () => {
    const state = {
      config: testConfig,
      tenant: testTenant,
      language: 'fr' as const,
      messages: locales.fr,
      signInRequest: { requestId: 'req-1', clientInfo: {} },
    };
    expect((await renderOnServer('/login?requestId=req-1', state)).title).toBe(
      'Connexion – Demo Immobilien AG',
    );
    expect(
      (await renderOnServer('/login?requestId=req-1&error=invalid_username_password', state)).title,
    ).toBe('Erreur\u00a0: Connexion – Demo Immobilien AG');
  });

  it('counts an alert or an invalid field as an error shown, and nothing else', () => {
    expect(htmlShowsError('<div class="x" role="alert" tabindex="-1">Falsch</div>')).toBe(true);
    expect(htmlShowsError('<input aria-invalid="true" name="email"/>')).toBe(true);
    expect(htmlShowsError('<div role="status">Gesendet</div><input aria-invalid="false"/>')).toBe(false);
    expect(htmlShowsError('<p>role="alert" as text is escaped: role=&quot;alert&quot;</p>')).toBe(false);
  });
});

describe('the activation result', () => {
  it('takes the focus when it replaces the "activating" line, so that it is read out', async () => {
    const pending = pendingAnswer();
    stubPortalApi('activate-user-account', pending.promise);
    await renderPage('/verification-complete?email=anna%40example.ch&verificationid=ver-1&subdomain=demo');
    pending.settle(jsonAnswer(200, { success: true, status: 200, data: { isAlreadyActivated: false } }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveFocus());
  });

  it('takes the focus for an error too (role="alert")', async () => {
    stubPortalApi('activate-user-account', errorAnswer(400, 'email_or_verificationid_invalid'));
    await renderPage('/verification-complete?email=anna%40example.ch&verificationid=ver-1&subdomain=demo');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });
});

describe('the terms dialog', () => {
  it('is described by its short introduction, not by the whole terms', async () => {
    stubPortalApi('register-user', { success: true, status: 200, data: { sub: 'sub-1' } });
    await renderPage('/register');
    await userEvent.click(screen.getByRole('button', { name: 'Read the terms of use' }));
    // Mantine names and describes the dialog once its title and body have mounted, an effect after
    // the dialog itself: a slow run found the dialog a moment before its name.
    const dialog = await screen.findByRole('dialog', { name: 'Terms of use' });
    const description = await waitFor(() => {
      const id = dialog.getAttribute('aria-describedby');
      expect(id).toBeTruthy();
      return id!;
    });
    const text = document.getElementById(description)!.textContent!;
    expect(text.length).toBeLessThan(300);
    expect(text).toContain('These terms of use');
    // the terms themselves are still all there
    expect(within(dialog).getAllByRole('heading', { level: 3 })).toHaveLength(7);
  });

  it('keeps an edge in forced colours, where its shadow is dropped', async () => {
    stubPortalApi('register-user', { success: true, status: 200, data: { sub: 'sub-1' } });
    await renderPage('/register');
    await userEvent.click(screen.getByRole('button', { name: 'Read the terms of use' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terms of use' });
    expect(dialog).toHaveClass('terms-dialog');
    // jsdom applies no stylesheet: the rule itself is read (the browser paints it).
    const css = readFileSync(
      join(dirname(fileURLToPath(import.meta.url)), '../components/TermsOfUse/terms-of-use.css'),
      'utf8',
    );
    expect(css).toMatch(
      /@media \(forced-colors: active\) \{\s*\.terms-dialog \{\s*border: 1px solid CanvasText;/,
    );
  });
});

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('moving to another page inside the browser (WCAG 2.4.3)', () => {
  it('leaves the focus where the browser puts it on the page load, and gives the next page’s heading the focus', async () => {
    stubFetch(provider);
    await renderPage('/login?subdomain=demo&requestId=r1');
    const signIn = await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(signIn).not.toHaveFocus();
    await userEvent.click(screen.getByRole('link', { name: 'Forgot your password or account locked?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot password' })).toHaveFocus();
  });
});
