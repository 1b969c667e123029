import type { ParseKeys } from 'i18next';
import { type LazyPage, lazyPage } from './lazy-page';

export interface PageRoute {
  path: string;
  page: LazyPage;
  /** The page module as the client build's manifest names it, for the server's modulepreload links. */
  source: string;
  /** The page title's translation key: the server puts it into <title> before anything runs. */
  titleKey: ParseKeys;
}

// spec §2: the routes; each page arrives with the issue that builds it.
export const pageRoutes: PageRoute[] = [
  {
    path: '/login',
    page: lazyPage(() => import('../pages/Login')),
    source: 'src/pages/Login/index.tsx',
    titleKey: 'login.title',
  },
  {
    path: '/register',
    page: lazyPage(() => import('../pages/Register')),
    source: 'src/pages/Register/index.tsx',
    titleKey: 'register.title',
  },
  {
    path: '/verification-complete',
    page: lazyPage(() => import('../pages/VerificationComplete')),
    source: 'src/pages/VerificationComplete/index.tsx',
    titleKey: 'verification.title',
  },
  {
    path: '/password-reset-init',
    page: lazyPage(() => import('../pages/PasswordResetInit')),
    source: 'src/pages/PasswordResetInit/index.tsx',
    titleKey: 'password_reset.init.title',
  },
  {
    path: '/password-set',
    page: lazyPage(() => import('../pages/PasswordSet')),
    source: 'src/pages/PasswordSet/index.tsx',
    titleKey: 'password_reset.reset.title',
  },
  {
    path: '/password-set-success',
    page: lazyPage(() => import('../pages/PasswordSetSuccess')),
    source: 'src/pages/PasswordSetSuccess/index.tsx',
    titleKey: 'password_reset.success.title',
  },
  {
    path: '/resend-account-activation-email',
    page: lazyPage(() => import('../pages/ResendActivation')),
    source: 'src/pages/ResendActivation/index.tsx',
    titleKey: 'resend_account_activation_email.title',
  },
];

export const notFoundRoute: PageRoute = {
  path: '*',
  page: lazyPage(() => import('../pages/NotFound')),
  source: 'src/pages/NotFound/index.tsx',
  titleKey: 'notFound.title',
};

export function matchPageRoute(pathname: string): PageRoute {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return pageRoutes.find((route) => route.path === normalised) ?? notFoundRoute;
}
