import type { ConsolePage, ConsolePageState } from '@concierge/contracts';
import type { Translator } from '../i18n/translator';

/** The page's one h1. */
export function pageHeading(view: ConsolePage, { t }: Translator): string {
  switch (view.page) {
    case 'sign-in':
      return t('signIn.title');
    case 'home':
      return t('home.title');
    case 'tenant':
      return view.tenant.displayName;
    case 'batch-new':
      return t('batchNew.title');
    case 'batch':
      return view.detail.batch.building;
    case 'invitations':
      return t('invitations.title');
    case 'brand':
      return t('brand.title');
    case 'audit':
      return view.tenant ? t('audit.titleOf', { name: view.tenant.displayName }) : t('audit.title');
    case 'forbidden':
      return t('forbidden.title');
    case 'not-found':
      return t('notFound.title');
  }
}

/** Whether the page answers a post it refused: its title says so first (WCAG 3.3.1). */
export function showsError(state: ConsolePageState): boolean {
  const form = 'form' in state.view ? state.view.form : null;
  return state.flash?.kind === 'error' || (form !== null && Object.keys(form.errors).length > 0);
}

/** The browser tab's title: the heading, the tenant of a tenant's page, and the console. */
export function documentTitle(state: ConsolePageState, translator: Translator): string {
  const { t } = translator;
  const heading = pageHeading(state.view, translator);
  const view = state.view;
  const tenant =
    view.page === 'batch-new' || view.page === 'batch' || view.page === 'invitations' || view.page === 'brand'
      ? view.tenant
      : null;
  const title = tenant ? `${heading} · ${tenant.displayName}` : heading;
  return t('common.documentTitle', { title: showsError(state) ? t('common.errorTitle', { title }) : title });
}
