import type { User } from '@concierge/oidc-client';
import { element } from './dom';
import type { Texts } from './texts';

export function loadingView(message: string): HTMLElement {
  return element('p', { role: 'status', class: 'status' }, message);
}

export function signedOutView(t: Texts, onSignIn: () => void, onSignInPopup: () => void): HTMLElement {
  const button = element('button', { type: 'button', 'data-testid': 'sign-in' }, t.signIn);
  button.addEventListener('click', onSignIn);
  const popup = element(
    'button',
    { type: 'button', class: 'secondary', 'data-testid': 'sign-in-popup' },
    t.signInPopup,
  );
  popup.addEventListener('click', onSignInPopup);
  return element(
    'section',
    {},
    element('h1', {}, t.heading),
    element('p', {}, t.intro),
    element('p', { class: 'actions' }, button, ' ', popup),
  );
}

export function signedInView(t: Texts, user: User, onSignOut: () => void, onRenew: () => void): HTMLElement {
  const email = typeof user.profile.email === 'string' ? user.profile.email : '';
  const button = element('button', { type: 'button', 'data-testid': 'sign-out' }, t.signOut);
  button.addEventListener('click', onSignOut);
  const renew = element('button', { type: 'button', class: 'secondary', 'data-testid': 'renew' }, t.renew);
  renew.addEventListener('click', onRenew);
  const validUntil = user.expires_at ? new Date(user.expires_at * 1000).toLocaleTimeString() : '–';
  return element(
    'section',
    {},
    element('h1', {}, t.signedInHeading),
    element(
      'dl',
      {},
      element('dt', {}, t.email),
      element('dd', { 'data-testid': 'user-email' }, email || t.noEmail),
      element('dt', {}, t.sub),
      element('dd', { 'data-testid': 'user-sub' }, user.profile.sub),
      element('dt', {}, t.accessValidUntil),
      element(
        'dd',
        { 'data-testid': 'token-expires', 'data-expires-at': String(user.expires_at ?? '') },
        validUntil,
      ),
    ),
    element('p', { class: 'actions' }, button, ' ', renew),
  );
}

export function errorView(t: Texts, heading: string, error: unknown): HTMLElement {
  const detail = error instanceof Error ? error.message : String(error);
  return element(
    'section',
    { role: 'alert' },
    element('h1', {}, heading),
    element('p', { class: 'error-detail', 'data-testid': 'error-detail' }, detail),
    element('p', {}, element('a', { href: '/', 'data-testid': 'back-home' }, t.backHome)),
  );
}
