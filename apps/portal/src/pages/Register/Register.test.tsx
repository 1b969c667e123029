import { type FormOutcome, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@concierge/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusedSummary } from '../../test/error-summary';
import { errorAnswer, NETWORK_ERROR, pathOf, pendingAnswer, queryOf, stubPortalApi } from '../../test/fetch';
import { testTenant } from '../../test/fixtures';
import { renderPage, serverSeed } from '../../test/render-page';

const REGISTERED = { success: true, status: 200, data: { sub: 'sub-1', activationMailQueued: true } };

beforeEach(() => {
  window.sessionStorage.clear();
  stubPortalApi('register-user', REGISTERED);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CODE = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
const INVITE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const PASSWORD = 'Sonnen-Weg7!';

// Labels as the English texts have them; Mantine adds the "required" asterisk after the text.
const field = {
  email: () => screen.getByLabelText(/^Email address/),
  password: () => screen.getByLabelText(/^Password/),
  confirmation: () => screen.getByLabelText(/^Repeat password/),
  code: () => screen.getByLabelText(/^Registration code/),
  terms: () => screen.getByRole('checkbox', { name: /I have read and accept/ }),
};

/** Focuses the field and pastes the text: as a visitor would, much faster than typing it key by key. */
async function enter(element: HTMLElement, text: string) {
  await userEvent.click(element);
  await userEvent.paste(text);
}

async function fillValidForm(email = 'Anna.Muster@Example.CH') {
  await enter(field.email(), email);
  await enter(field.password(), PASSWORD);
  await enter(field.confirmation(), PASSWORD);
  await enter(field.code(), CODE);
  await userEvent.click(field.terms());
}

describe('register page: validation (spec §5)', () => {
  it('shows each message when its field loses focus', async () => {
    await renderPage('/register');
    await userEvent.click(field.email());
    await userEvent.tab();
    expect(await screen.findByText('Please enter your email address.')).toBeInTheDocument();

    await userEvent.click(field.password());
    await userEvent.tab();
    expect(await screen.findByText('Please enter a password.')).toBeInTheDocument();
    await enter(field.password(), 'simple');
    await userEvent.tab();
    expect(
      await screen.findByText(/The password must be 6 to 39 characters long and include a special character/),
    ).toBeInTheDocument();

    await enter(field.confirmation(), 'other');
    await userEvent.tab();
    expect(await screen.findByText('The two passwords do not match.')).toBeInTheDocument();

    await userEvent.click(field.code());
    await userEvent.tab();
    expect(await screen.findByText('Please enter your registration code.')).toBeInTheDocument();
    await enter(field.code(), '1234-abcd');
    await userEvent.tab();
    expect(await screen.findByText(/The registration code is not in the correct format/)).toBeInTheDocument();

    await userEvent.click(field.terms());
    await userEvent.click(field.terms());
    await userEvent.tab();
    expect(
      await screen.findByText('Please confirm that you have read the terms of use.'),
    ).toBeInTheDocument();
  });

  it('on submit checks every field, ties the messages to the inputs and focuses the summary (German)', async () => {
    const { sent } = stubPortalApi('register-user', REGISTERED);
    await renderPage('/register', 'de');
    await userEvent.click(screen.getByRole('button', { name: 'Registrieren' }));
    const email = screen.getByLabelText(/^E-Mail-Adresse/);
    const { summary } = await focusedSummary('Bitte prüfen Sie Folgendes:');
    // One link per error, in the form's order, with the words shown at the field.
    expect(
      within(summary)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Bitte geben Sie Ihre E-Mail-Adresse ein.',
      'Bitte geben Sie ein Passwort ein.',
      'Bitte wiederholen Sie das Passwort.',
      'Bitte geben Sie Ihren Registrierungscode ein.',
      'Bitte bestätigen Sie, dass Sie die Nutzungsbedingungen gelesen haben.',
    ]);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    // Empty: it asks for the address, it does not call it malformed.
    const message = within(email.closest('.mantine-InputWrapper-root') as HTMLElement).getByText(
      'Bitte geben Sie Ihre E-Mail-Adresse ein.',
    );
    expect(email.getAttribute('aria-describedby')).toContain(message.id);
    for (const text of [
      'Bitte geben Sie ein Passwort ein.',
      'Bitte geben Sie Ihren Registrierungscode ein.',
      'Bitte bestätigen Sie, dass Sie die Nutzungsbedingungen gelesen haben.',
    ])
      expect(screen.getAllByText(text)).toHaveLength(2);
    expect(sent()).toEqual([]);
  });

  it('on submit also shows the format messages of password and code', async () => {
    await renderPage('/register');
    await enter(field.email(), 'anna@example.ch');
    await enter(field.password(), 'password');
    await enter(field.confirmation(), 'password');
    await enter(field.code(), '00000000-0000-0000-0000-000000000000');
    await userEvent.click(field.terms());
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    const { summary } = await focusedSummary();
    expect(
      within(summary).getByText(/The password must be 6 to 39 characters long and include/),
    ).toBeInTheDocument();
    expect(
      within(summary).getByText(/The registration code is not in the correct format/),
    ).toBeInTheDocument();
  });

  it('tells a password one character too long the whole length range, taken from the rule', async () => {
    await renderPage('/register');
    await enter(field.password(), `Sonnen-Weg7!${'x'.repeat(PASSWORD_MAX_LENGTH - 11)}`);
    await userEvent.tab();
    expect(
      await screen.findByText(
        `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long and include a special character, a number, an uppercase and a lowercase letter.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/^The password must be 6 to 39 characters long and contain/)).toBeInTheDocument();
  });

  it('leads from the summary to the invalid field, not always the first one', async () => {
    await renderPage('/register');
    await enter(field.email(), 'anna@example.ch');
    await enter(field.password(), PASSWORD);
    await enter(field.confirmation(), 'Sonnen-Weg8!');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    const { summary } = await focusedSummary();
    await userEvent.click(within(summary).getByRole('link', { name: 'The two passwords do not match.' }));
    expect(field.confirmation()).toHaveFocus();
  });

  it('takes a message away as soon as the input is right', async () => {
    await renderPage('/register');
    await enter(field.email(), 'anna@');
    await userEvent.tab();
    expect(screen.getByText('The email address format is invalid.')).toBeInTheDocument();
    await enter(field.email(), 'example.ch');
    expect(screen.queryByText('The email address format is invalid.')).not.toBeInTheDocument();
    expect(field.email()).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('register page: query parameters (spec §2)', () => {
  it('takes the code from registrationcode', async () => {
    await renderPage(`/register?registrationcode=${CODE}`);
    expect(field.code()).toHaveValue(CODE);
    expect(field.code()).toHaveAttribute('placeholder', '00000000-0000-0000-0000-000000000000');
    expect(field.code()).toHaveAttribute('autocomplete', 'off');
  });

  it('takes the code from code as well', async () => {
    await renderPage(`/register?code=${CODE}`);
    expect(field.code()).toHaveValue(CODE);
  });

  it('ignores the value empty', async () => {
    await renderPage('/register?registrationcode=empty&code=empty');
    expect(field.code()).toHaveValue('');
  });

  it('shows e-mail and code of an invitation as text, not as inputs, and says why', async () => {
    await renderPage(
      `/register?invite_id=${INVITE}&email=anna%40example.ch&registrationcode=${CODE.toUpperCase()}`,
    );
    const email = screen.getByRole('group', { name: 'Email address' });
    expect(email).toHaveTextContent('anna@example.ch');
    // As printed on the letter, whatever the link's case.
    expect(screen.getByRole('group', { name: 'Registration code' })).toHaveTextContent(CODE);
    expect(screen.queryByRole('textbox', { name: /^Email address/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^Registration code/ })).not.toBeInTheDocument();
    expect(field.password()).not.toHaveAttribute('readonly');
    expect(screen.getByText(/come from your invitation and cannot be changed here/)).toBeInTheDocument();
  });

  it.each([
    ['in capitals without hyphens', CODE.toUpperCase().replaceAll('-', '')],
    ['with spaces', CODE.replaceAll('-', ' ')],
    ["pasted with the letter's words around it", `Ihr Code: ${CODE.toUpperCase()}.`],
  ])('takes the code %s, shows it as printed and registers with it', async (_, typed) => {
    const { sent } = stubPortalApi('register-user', REGISTERED);
    await renderPage('/register');
    await enter(field.email(), 'anna@example.ch');
    await enter(field.password(), PASSWORD);
    await enter(field.confirmation(), PASSWORD);
    await enter(field.code(), typed);
    await userEvent.click(field.terms());
    expect(field.code()).toHaveValue(CODE);
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toMatchObject({ registrationcode: CODE });
  });

  it('says a withdrawn invitation was withdrawn, and whom to ask', async () => {
    stubPortalApi('register-user', errorAnswer(400, 'invitation_withdrawn'));
    await renderPage(`/register?invite_id=${INVITE}&email=anna%40example.ch&registrationcode=${CODE}`);
    await enter(field.password(), PASSWORD);
    await enter(field.confirmation(), PASSWORD);
    await userEvent.click(field.terms());
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your property manager has withdrawn this invitation.',
    );
    // Issue 30: said once, with one button that asks for a new invitation.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Ask for a new invitation' })).toBeInTheDocument();
  });

  it('leaves e-mail and code editable without an invitation', async () => {
    await renderPage(`/register?email=anna%40example.ch&registrationcode=${CODE}`);
    expect(field.email()).not.toHaveAttribute('readonly');
    expect(field.code()).not.toHaveAttribute('readonly');
    expect(screen.queryByText(/come from your invitation/)).not.toBeInTheDocument();
  });

  it('shows a known error from the query, and the default for anything else', async () => {
    const { unmount } = await renderPage('/register?error=user_has_not_roles');
    expect(screen.getByRole('alert')).toHaveTextContent('no access to this portal has been set up for you');
    unmount();
    await renderPage('/register?error=%3Cb%3Ehacked%3C%2Fb%3E', 'fr');
    expect(screen.getByRole('alert')).toHaveTextContent(
      (await import('../Register/locales/fr.json')).error.default,
    );
    expect(document.body).not.toHaveTextContent('hacked');
  });
});

describe('register page: an invitation that ended (issue 30)', () => {
  const LINK = `/register?invite_id=${INVITE}&email=anna%40example.ch&registrationcode=${CODE}`;
  /** What the server renders the page with: its answer to the address, or to a form posted to it. */
  const answered = (form: FormOutcome) => ({
    ...serverSeed(LINK),
    form,
  });

  it('says on arrival that it expired and asks the property manager for a new one with one button', async () => {
    const { sent } = stubPortalApi('request-new-invitation', { success: true, status: 200, data: {} });
    await renderPage(
      LINK,
      'en',
      testTenant,
      answered({
        page: '/register',
        call: 'register-user',
        status: 'refused',
        values: {},
        fieldErrors: [],
        code: 'invitation_expired',
      }),
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This invitation has expired.');
    expect(alert).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Ask for a new invitation' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('We have asked your property manager to send you a new invitation.');
    expect(status).toHaveFocus();
    // The link's parameters as the link has them: the server decides what they name.
    expect(sent()).toEqual([{ invite_id: INVITE, registrationcode: CODE, email: 'anna@example.ch' }]);
  });

  it('confirms a request posted without JavaScript, and shows a refused one with its button again (French)', async () => {
    const { unmount } = await renderPage(
      LINK,
      'fr',
      testTenant,
      answered({ page: '/register', call: 'request-new-invitation', status: 'sent', values: {} }),
    );
    const french = (await import('./locales/fr.json')).newInvitation;
    expect(screen.getByRole('status')).toHaveTextContent(french.success.text);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();
    await renderPage(
      LINK,
      'fr',
      testTenant,
      answered({
        page: '/register',
        call: 'request-new-invitation',
        status: 'refused',
        values: {},
        fieldErrors: [],
        code: 'too_many_requests',
        retryAfterSeconds: 600,
      }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Trop de demandes. Veuillez patienter 10 minutes');
    expect(screen.getByRole('button', { name: french.submit })).toBeInTheDocument();
  });
});

describe('register page: submit (spec §4, §7)', () => {
  it('sends the lower-cased e-mail, the code, the tenant client id and the invitation', async () => {
    const { sent } = stubPortalApi('register-user', REGISTERED);
    await renderPage(`/register?invite_id=${INVITE}&registrationcode=${CODE.toUpperCase()}`);
    // The invitation's code is fixed (shown as text); the rest is typed.
    await enter(field.email(), 'Anna.Muster@Example.CH');
    await enter(field.password(), PASSWORD);
    await enter(field.confirmation(), PASSWORD);
    await userEvent.click(field.terms());
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('status');
    expect(sent()).toEqual([
      {
        email: 'anna.muster@example.ch',
        password: PASSWORD,
        registrationcode: CODE,
        clientid: testTenant.clientId,
        invite_id: INVITE,
      },
    ]);
  });

  it('disables the inputs while submitting, then replaces the form with the success message', async () => {
    const pending = pendingAnswer();
    stubPortalApi('register-user', pending.promise);
    await renderPage('/register?subdomain=demo&requestId=r1');
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(field.email()).toBeDisabled();
    expect(field.password()).toBeDisabled();
    expect(field.code()).toBeDisabled();
    expect(field.terms()).toBeDisabled();
    expect(screen.getByRole('button', { name: /Registering/ })).toBeDisabled();

    pending.settle(Response.json(REGISTERED));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('We have sent an activation email to anna.muster@example.ch');
    expect(status).toHaveFocus();
    expect(screen.queryByLabelText(/^Email address/)).not.toBeInTheDocument();
    const resend = screen.getByRole('link', { name: /No email received/ });
    expect(pathOf(resend)).toBe('/resend-account-activation-email');
    expect(queryOf(resend)).toEqual({ subdomain: 'demo', requestId: 'r1', email: 'anna.muster@example.ch' });
  });

  it('shows the success message in German too', async () => {
    await renderPage('/register', 'de');
    await enter(screen.getByLabelText(/^E-Mail-Adresse/), 'anna@example.ch');
    await enter(screen.getByLabelText(/^Passwort \*/), PASSWORD);
    await enter(screen.getByLabelText(/^Passwort wiederholen/), PASSWORD);
    await enter(screen.getByLabelText(/^Registrierungscode/), CODE);
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Registrieren' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Wir haben ein Aktivierungs-E-Mail an anna@example.ch gesendet.',
    );
  });

  it('keeps the form with the mapped message when the server refuses', async () => {
    stubPortalApi('register-user', errorAnswer(409, 'registration_code_already_registered_db'));
    await renderPage('/register');
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This registration code has already been used.');
    expect(alert).toHaveFocus();
    expect(field.email()).toHaveValue('Anna.Muster@Example.CH');
    expect(field.email()).toBeEnabled();
  });

  it('says the registration is being finished, not that it failed, when its outcome is not known yet', async () => {
    stubPortalApi('register-user', errorAnswer(503, 'registration_pending'));
    await renderPage('/register');
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We are finishing your registration.');
    expect(alert).not.toHaveTextContent(/failed|already/i);
  });

  it('shows errorCreatingNewUser for an unknown server code (Italian)', async () => {
    stubPortalApi('register-user', errorAnswer(500, 'db_on_fire'));
    const italian = (await import('./locales/it.json')).error.errorCreatingNewUser;
    await renderPage('/register', 'it');
    await enter(screen.getByLabelText(/^Indirizzo e-mail/), 'anna@example.ch');
    await enter(screen.getByLabelText(/^Password \*/), PASSWORD);
    await enter(screen.getByLabelText(/^Conferma password/), PASSWORD);
    await enter(screen.getByLabelText(/^Codice di registrazione/), CODE);
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Registrarsi' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(italian);
    expect(document.body).not.toHaveTextContent('db_on_fire');
  });

  it('shows errorCreatingNewUser when the server cannot be reached, and clears it on invalid input', async () => {
    stubPortalApi('register-user', NETWORK_ERROR);
    await renderPage('/register');
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account could not be created.');
    await userEvent.clear(field.code());
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.queryByText(/Your account could not be created/)).not.toBeInTheDocument();
    await focusedSummary();
  });
});

describe('register page: terms of use and links', () => {
  it('Accept in the terms dialog ticks the box and closes the dialog', async () => {
    await renderPage('/register');
    const opener = await screen.findByRole('button', { name: 'Read the terms of use' });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Terms of use' });
    for (const heading of ['1. Subject matter', '4. Data security', '7. Final provisions'])
      expect(within(dialog).getByRole('heading', { name: heading })).toBeInTheDocument();
    expect(within(dialog).getByText(/normally carried out between 18:00 and 07:00/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(field.terms()).toBeChecked();
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('works by keyboard alone: the dialog takes the focus, Escape closes it and the focus returns', async () => {
    await renderPage('/register');
    const opener = await screen.findByRole('button', { name: 'Read the terms of use' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Terms of use' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    for (let step = 0; step < 5; step += 1) {
      await userEvent.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
    expect(field.terms()).not.toBeChecked();
  });

  it('Close leaves the box as it was', async () => {
    await renderPage('/register', 'de');
    await userEvent.click(await screen.findByRole('button', { name: 'Nutzungsbedingungen lesen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nutzungsbedingungen' });
    const closeButtons = within(dialog).getAllByRole('button', { name: 'Schliessen' });
    await userEvent.click(closeButtons.at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox')).not.toBeChecked();
  });

  it('links back to login keeping the query but not the code', async () => {
    await renderPage(`/register?subdomain=demo&requestId=r1&registrationcode=${CODE}&error=x`);
    const login = screen.getByRole('link', { name: 'Already registered? Sign in' });
    expect(pathOf(login)).toBe('/login');
    expect(queryOf(login)).toEqual({ subdomain: 'demo', requestId: 'r1' });
  });

  it('hides the login link for a tenant that asks so', async () => {
    await renderPage('/register', 'en', {
      ...testTenant,
      flags: { ...testTenant.flags, hideRegisterLoginLink: true },
    });
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Sign in/ })).not.toBeInTheDocument();
  });
});
