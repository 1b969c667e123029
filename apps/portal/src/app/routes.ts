import type { PortalPageRoute } from '@concierge/contracts';
import type { ComponentType } from 'react';
import type { MessageNamespace, PlainMessageKey } from '../i18n/translator';
import { type LazyPage, lazyPage } from './lazy-page';

export interface PageRoute extends PortalPageRoute {
  page: LazyPage;
  /** The page title's translation key: the server puts it into <title> before anything runs. */
  titleKey: PlainMessageKey;
  /** The dictionary parts the page needs; the server inlines only these, the browser loads the rest on demand. */
  messages: MessageNamespace[];
}

// Every page folder's index.tsx, each its own chunk. The keys are relative to the portal's root, as
// the client build's manifest names the chunks ('/src/pages/Login/index.tsx' is its
// 'src/pages/Login/index.tsx'); the server checks at start that every route's source is there.
const pageModules = import.meta.glob<{ default: ComponentType }>('/src/pages/*/index.tsx');

/** The page of a folder of pages/, loaded lazily, and its manifest key. */
function pageIn(folder: string): Pick<PageRoute, 'page' | 'source'> {
  const key = `/src/pages/${folder}/index.tsx`;
  const load = pageModules[key];
  if (!load) throw new Error(`There is no page ${key}`);
  return { page: lazyPage(load), source: key.slice(1) };
}

// spec §2: the routes; each page arrives with the issue that builds it.
export const pageRoutes: PageRoute[] = [
  {
    path: '/login',
    ...pageIn('Login'),
    titleKey: 'login.title',
    messages: ['login'],
    needsSignInRequest: true,
  },
  {
    path: '/register',
    ...pageIn('Register'),
    titleKey: 'register.title',
    messages: ['register', 'terms'],
    needsSignInRequest: true,
  },
  {
    path: '/verification-complete',
    ...pageIn('VerificationComplete'),
    titleKey: 'verification.title',
    messages: ['verification'],
    needsSignInRequest: false,
  },
  {
    path: '/password-reset-init',
    ...pageIn('PasswordResetInit'),
    titleKey: 'password_reset.init.title',
    messages: ['password_reset', 'register'],
    needsSignInRequest: true,
  },
  {
    path: '/password-set',
    ...pageIn('PasswordSet'),
    titleKey: 'password_reset.reset.title',
    messages: ['password_reset', 'register'],
    needsSignInRequest: false,
  },
  {
    path: '/password-set-success',
    ...pageIn('PasswordSetSuccess'),
    titleKey: 'password_reset.success.title',
    messages: ['password_reset'],
    needsSignInRequest: false,
  },
  {
    path: '/resend-account-activation-email',
    ...pageIn('ResendActivation'),
    titleKey: 'resend_account_activation_email.title',
    messages: ['resend_account_activation_email', 'register'],
    needsSignInRequest: true,
  },
];

export const notFoundRoute: PageRoute = {
  path: '*',
  ...pageIn('NotFound'),
  titleKey: 'notFound.title',
  messages: ['notFound'],
  needsSignInRequest: false,
};

export function matchPageRoute(pathname: string): PageRoute {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return pageRoutes.find((route) => route.path === normalised) ?? notFoundRoute;
}

/**
 * The path of a URL as the server receives it (`/login?…`). Never resolved against a base: that
 * reads `//evil.example/login` (and `/\evil.example/login`) as the path `/login` on another host.
 */
export function pathnameOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Where a link "to this page" (another language, the same page without a parameter) goes: the path
 * of the route the address matched, never the address's own path, which a browser may read as
 * another site (`//evil.example/login`). An unknown path has no page of its own: its links go to
 * /login.
 */
export function ownPathOf(pathname: string): string {
  const route = matchPageRoute(pathname);
  return route === notFoundRoute ? '/login' : route.path;
}
