import { CONSOLE_CSRF_FIELD, type ConsolePage, type ConsolePageState } from '@concierge/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleApp } from '../app/ConsoleApp';
import { Root } from '../app/Root';
import { readConsoleState } from '../console-state';
import { CONSOLE_STATE_ELEMENT_ID, renderConsolePage, serialiseConsoleState } from '../entry-server';
import { locales } from '../i18n/resources';
import { BATCH_ID, codes, demo, invitations, signedInPages, stateFor, TOKEN } from '../test/console-states';

/** The page as the server sends it, before any script: what a browser without JavaScript shows. */
function serve(state: ConsolePageState) {
  const page = renderConsolePage(state);
  document.body.innerHTML = `<div id="root">${page.html}</div><script type="application/json" id="${CONSOLE_STATE_ELEMENT_ID}">${serialiseConsoleState(state)}</script>`;
  return page;
}

const postForms = () => [...document.querySelectorAll<HTMLFormElement>('form')];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('console pages, as the server renders them', () => {
  it.each(['de', 'fr'] as const)(
    'gives every page (%s) one heading, and every form its action and the session’s token',
    (language) => {
      for (const { view, actions } of signedInPages()) {
        serve(stateFor(view, language));
        expect(screen.getAllByRole('heading', { level: 1 }), view.page).toHaveLength(1);
        const forms = postForms();
        expect(
          forms.map((form) => form.getAttribute('action')),
          view.page,
        ).toEqual([...['/console/sign-out'], ...actions]);
        for (const form of forms) {
          expect(form.getAttribute('method'), form.action).toBe('post');
          const token = form.querySelector<HTMLInputElement>(`input[name="${CONSOLE_CSRF_FIELD}"]`);
          expect(token?.type, form.action).toBe('hidden');
          expect(token?.value, form.action).toBe(TOKEN);
        }
        // Every field has a name a person hears (WCAG 4.1.2).
        for (const field of document.querySelectorAll<HTMLInputElement>(
          'input:not([type=hidden]), select, textarea',
        )) {
          expect(
            field.labels?.length || field.getAttribute('aria-label'),
            `${view.page} ${field.name}`,
          ).toBeTruthy();
        }
      }
    },
  );

  it('offers a box only on the unused codes of a batch, shows who registered, and dates in Zurich time', () => {
    const [, , , batchPage] = signedInPages();
    serve(stateFor(batchPage!.view, 'fr'));
    const form = document.querySelector<HTMLFormElement>('form[action="/console/t/demo/codes/revoke"]')!;
    expect(form.querySelector<HTMLInputElement>('input[name="batch"]')?.value).toBe(BATCH_ID);
    const boxes = [...form.querySelectorAll<HTMLInputElement>('input[type=checkbox][name="codes"]')];
    expect(boxes.map((box) => box.value)).toEqual([codes.unused.code, codes.unusedFrench.code]);
    expect(
      screen.getByRole('checkbox', { name: 'Sélectionner le code du logement 1.1' }),
    ).toBeInTheDocument();

    const rowOf = (unit: string) => screen.getByRole('rowheader', { name: unit }).closest('tr')!;
    const used = within(rowOf('2.1'));
    expect(used.queryByRole('checkbox')).toBeNull();
    expect(used.getByText('Inscrit')).toBeInTheDocument();
    expect(used.getByText('avec luca.rossi@example.ch')).toBeInTheDocument();
    expect(used.getByText('italien')).toBeInTheDocument();
    expect(within(rowOf('3.1')).getByText('Révoqué')).toBeInTheDocument();
    expect(within(rowOf('1.1')).getByText(codes.unused.code).tagName).toBe('CODE');

    // Created 23:30 UTC on 1 March: 2 March in Zurich.
    expect(document.querySelector('.details')).toHaveTextContent('2 mars 2026, 00:30');
    expect(screen.getByRole('link', { name: 'Lettres (PDF)' })).toHaveAttribute(
      'href',
      `/console/t/demo/batches/${BATCH_ID}/letters.pdf`,
    );
    expect(screen.getByRole('link', { name: 'Export (CSV)' })).toHaveAttribute(
      'href',
      `/console/t/demo/batches/${BATCH_ID}/export.csv`,
    );
  });

  it('announces what the last post did, and words a code it does not know with the general text', () => {
    const home: ConsolePage = { page: 'home', figures: [] };
    serve(stateFor(home, 'de', { flash: { kind: 'done', done: 'codes_revoked', count: 3 } }));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Die ausgewählten Registrierungscodes wurden widerrufen. Widerrufen: 3.',
    );

    serve(stateFor(home, 'fr', { flash: { kind: 'error', code: 'no_unused_codes' } }));
    expect(screen.getByRole('alert')).toHaveTextContent(locales.fr.error.no_unused_codes);

    const page = serve(
      stateFor(home, 'fr', { flash: { kind: 'error', code: 'something_new' as 'invalid_request' } }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent(locales.fr.error.default);
    expect(document.getElementById('root')).not.toHaveTextContent('something_new');
    expect(page.title).toBe('Erreur\u00a0: Vue d’ensemble – Console Concierge');
  });

  it('shows a refused form again with what was typed, each error at its field and in the summary', () => {
    const page = serve(
      stateFor(
        {
          page: 'batch-new',
          tenant: demo,
          form: {
            values: { building: 'Seestrasse 12', units: '1.1;Anna;de\n1.1;Ben;de' },
            errors: { units: { code: 'unit_twice', line: 2 }, form: { code: 'a_code_nobody_knows' } },
          },
        },
        'de',
      ),
    );
    expect(page.title).toBe('Fehler: Neue Briefserie · Demo Verwaltung AG – Concierge Konsole');
    const form = document.querySelector<HTMLFormElement>('form[action="/console/t/demo/batches"]')!;
    expect(form.enctype).toBe('multipart/form-data');
    expect(screen.getByLabelText(/^Gebäude/)).toHaveValue('Seestrasse 12');
    const units = screen.getByLabelText(/^Wohnungen/);
    expect(units).toHaveValue('1.1;Anna;de\n1.1;Ben;de');
    expect(units).toHaveAccessibleDescription(
      /Zeile 2: Diese Wohnung steht schon auf einer früheren Zeile\./,
    );
    expect(units).toHaveAttribute('aria-invalid', 'true');
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent(locales.de.error.default);
    expect(within(summary).getByRole('link', { name: /^Wohnungen: Zeile 2/ })).toHaveAttribute(
      'href',
      `#${units.id}`,
    );
    expect(screen.getByLabelText(/Oder eine CSV-Datei/)).toHaveAttribute('accept', '.csv,text/csv');
  });

  it('lets only an invitation nobody registered with be re-sent or withdrawn', () => {
    const [, , , , invitationsPage] = signedInPages();
    serve(stateFor(invitationsPage!.view, 'de'));
    const table = screen.getByRole('table', { name: 'Einladungen' });
    const rowOf = (email: string) => within(table).getByRole('rowheader', { name: email }).closest('tr')!;
    expect(within(rowOf(invitations.open.email)).getByText('Offen')).toBeInTheDocument();
    expect(
      within(rowOf(invitations.open.email))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([`Erneut senden an ${invitations.open.email}`, `Zurückziehen an ${invitations.open.email}`]);
    expect(within(rowOf(invitations.registered.email)).getByText('Registriert')).toBeInTheDocument();
    expect(within(rowOf(invitations.registered.email)).queryByRole('button')).toBeNull();
    expect(within(rowOf(invitations.withdrawn.email)).getByText('Zurückgezogen')).toBeInTheDocument();
  });

  it('edits the brand’s draft, publishes the revision shown, and previews each portal page in a frame', () => {
    const brandPage = signedInPages().find(({ view }) => view.page === 'brand')!;
    serve(stateFor(brandPage.view, 'fr'));
    const form = document.querySelector<HTMLFormElement>('form[action="/console/t/demo/brand"]')!;
    expect(form.enctype).toBe('multipart/form-data');
    // The draft's colour, not the published one.
    expect(within(form).getByLabelText('Couleur principale')).toHaveValue('#c92a2a');
    expect(within(form).getByLabelText('Inscription possible avec une invitation')).toBeChecked();
    expect(within(form).getByLabelText('Utiliser le logo spécial')).not.toBeChecked();
    expect(within(form).getByLabelText('Utiliser le logo spécial')).toHaveAttribute('name', 'useSpecialLogo');
    expect(within(form).getByLabelText('Horaires (italien)')).toHaveAttribute('name', 'officeHours.it');
    expect(screen.getByRole('button', { name: 'Enregistrer le brouillon' })).toHaveAttribute(
      'type',
      'submit',
    );
    const publish = document.querySelector<HTMLFormElement>('form[action="/console/t/demo/brand/publish"]')!;
    expect(publish.querySelector<HTMLInputElement>('input[name="revision"]')?.value).toBe('7');
    const frames = [...document.querySelectorAll('iframe')];
    expect(
      frames.map((frame) => [frame.title, frame.getAttribute('src'), frame.getAttribute('loading')]),
    ).toEqual([
      ['Aperçu de la page /login', '/login?subdomain=demo&brandPreview=7', 'lazy'],
      ['Aperçu de la page /register', '/register?subdomain=demo&brandPreview=7', 'lazy'],
    ]);
  });

  it('sends a signed-out visitor to the provider, says why, and keeps the address in the language links', () => {
    serve({
      ...stateFor({ page: 'sign-in', reason: 'no_role' }, 'fr', { user: null, tenants: [], csrfToken: null }),
      url: '/console/audit?tenant=demo&before=40',
    });
    expect(screen.getByRole('alert')).toHaveTextContent(locales.fr.signIn.reason.no_role);
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute(
      'href',
      '/console/sign-in?lang=fr',
    );
    expect(postForms()).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Deutsch' })).toHaveAttribute(
      'href',
      '/console/audit?tenant=demo&before=40&lang=de',
    );
  });
});

describe('console pages, once the script runs', () => {
  it('hydrates what the server rendered without a mismatch; select all ticks every unused code, and a revocation asks first', async () => {
    const [, , , batchPage] = signedInPages();
    serve(stateFor(batchPage!.view, 'de'));
    const errors = vi.spyOn(console, 'error');
    const state = readConsoleState(document)!;
    await act(async () => {
      hydrateRoot(
        document.getElementById('root')!,
        <Root state={state} messages={locales.de}>
          <ConsoleApp />
        </Root>,
      );
    });
    expect(errors).not.toHaveBeenCalled();

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Alle unbenutzten Codes auswählen' }));
    const boxes = screen.getAllByRole('checkbox', { name: /^Code der Wohnung/ });
    expect(boxes).toHaveLength(2);
    for (const box of boxes) expect(box).toBeChecked();

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    // Whether the page's own handler stopped the post, read where the event ends (jsdom posts nowhere).
    const stopped: boolean[] = [];
    const onSubmit = (event: Event) => {
      stopped.push(event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener('submit', onSubmit);
    await user.click(screen.getByRole('button', { name: 'Ausgewählte widerrufen' }));
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Ausgewählte widerrufen' }));
    document.removeEventListener('submit', onSubmit);
    expect(confirm).toHaveBeenCalledWith(locales.de.batch.revokeSelectedConfirm);
    expect(stopped).toEqual([true, false]);
  });
});
