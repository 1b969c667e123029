import { Loader } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { NavigationTracker } from './navigation-focus';
import { pageRedirect } from './page-redirects';
import { useRouteMessages } from './route-messages';
import { matchPageRoute, type PageRoute } from './routes';
import { RequestProvider } from './sign-in-request/RequestContext';
import { RequestSync } from './sign-in-request/RequestSync';

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
  return <RoutePage key={route.path} route={route} />;
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
      <RequestProvider>
        <NavigationTracker>
          <Suspense fallback={<PageLoader />}>
            <RequestSync />
            <CurrentPage />
          </Suspense>
        </NavigationTracker>
      </RequestProvider>
    </PageRedirects>
  );
}
