import { Loader } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { NavigationTracker } from './navigation-focus';
import { pageRedirect } from './page-redirects';
import { useRouteMessages } from './route-messages';
import { matchPageRoute, type PageRoute } from './routes';
import { useQuerySync } from './sign-in-request/use-query-sync';
import { useRenewRequestOnReturn } from './sign-in-request/use-renew-request';

/**
 * The same redirects the server answers with a 302, for navigation inside the browser; and the
 * bare address to the sign-in page.
 */
function PageRedirects({ children }: { children: ReactNode }) {
  const [pathname] = useLocation();
  const search = useSearch();
  const query = search ? `?${search}` : '';
  const target = pathname === '/' ? `/login${query}` : pageRedirect(pathname, query);
  return target ? <Redirect to={target} replace /> : children;
}

/** A page with its texts: suspends while a page reached in the browser fetches them. */
function RoutePage({ route }: { route: PageRoute }) {
  useRouteMessages(route.messages);
  return <route.page />;
}

/** The page of the address, found as the server finds it (app/routes.ts; spec §2). */
function CurrentPage() {
  const [pathname] = useLocation();
  const route = matchPageRoute(pathname);
  return (
    <PageErrorBoundary key={route.path}>
      <RoutePage route={route} />
    </PageErrorBoundary>
  );
}

/**
 * Keeps the address and the sign-in request in step with the page (spec §2). Inside the page's
 * Suspense boundary, so only once the page has hydrated: an update reaching a page that is still
 * hydrating would make React throw the server's HTML away, and with it whatever the tenant had
 * already typed.
 */
function RequestSync() {
  useQuerySync();
  useRenewRequestOnReturn();
  return null;
}

function PageLoader() {
  return (
    <div className="page-loader">
      <Loader aria-hidden />
    </div>
  );
}

export function App() {
  return (
    <PageRedirects>
      <NavigationTracker>
        <Suspense fallback={<PageLoader />}>
          <RequestSync />
          <CurrentPage />
        </Suspense>
      </NavigationTracker>
    </PageRedirects>
  );
}
