import type { ParseKeys } from 'i18next';
import type { Messages } from '../i18n/resources';
import { type LazyPage, lazyPage } from './lazy-page';

/** A top-level part of the dictionary; a page gets only the parts it uses (and `common`). */
export type MessageNamespace = Exclude<keyof Messages, 'common'>;

export interface PageRoute {
  path: string;
  page: LazyPage;
  /** The page module as the client build's manifest names it, for the server's modulepreload links. */
  source: string;
  /** The page title's translation key: the server puts it into <title> before anything runs. */
  titleKey: ParseKeys;
  /** The dictionary parts the page needs; the server inlines only these, the browser loads the rest on demand. */
  messages: MessageNamespace[];
}

// spec §2: the routes; each page arrives with the issue that builds it.
export const pageRoutes: PageRoute[] = [
  {
    path: '/login',
    page: lazyPage(() => import('../pages/Login')),
    source: 'src/pages/Login/index.tsx',
    titleKey: 'login.title',
    messages: ['login'],
  },
  {
    path: '/register',
    page: lazyPage(() => import('../pages/Register')),
    source: 'src/pages/Register/index.tsx',
    titleKey: 'register.title',
    messages: ['register', 'terms'],
  },
  {
    path: '/verification-complete',
    page: lazyPage(() => import('../pages/VerificationComplete')),
    source: 'src/pages/VerificationComplete/index.tsx',
    titleKey: 'verification.title',
    messages: ['verification'],
  },
  {
    path: '/password-reset-init',
    page: lazyPage(() => import('../pages/PasswordResetInit')),
    source: 'src/pages/PasswordResetInit/index.tsx',
    titleKey: 'password_reset.init.title',
    messages: ['password_reset', 'register'],
  },
  {
    path: '/password-set',
    page: lazyPage(() => import('../pages/PasswordSet')),
    source: 'src/pages/PasswordSet/index.tsx',
    titleKey: 'password_reset.reset.title',
    messages: ['password_reset', 'register'],
  },
  {
    path: '/password-set-success',
    page: lazyPage(() => import('../pages/PasswordSetSuccess')),
    source: 'src/pages/PasswordSetSuccess/index.tsx',
    titleKey: 'password_reset.success.title',
    messages: ['password_reset'],
  },
  {
    path: '/resend-account-activation-email',
    page: lazyPage(() => import('../pages/ResendActivation')),
    source: 'src/pages/ResendActivation/index.tsx',
    titleKey: 'resend_account_activation_email.title',
    messages: ['resend_account_activation_email', 'register'],
  },
];

export const notFoundRoute: PageRoute = {
  path: '*',
  page: lazyPage(() => import('../pages/NotFound')),
  source: 'src/pages/NotFound/index.tsx',
  titleKey: 'notFound.title',
  messages: ['notFound'],
};

export function matchPageRoute(pathname: string): PageRoute {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return pageRoutes.find((route) => route.path === normalised) ?? notFoundRoute;
}
