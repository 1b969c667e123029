import { Loader } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { pageRedirect } from './page-redirects';
import { useRouteMessages } from './route-messages';
import { notFoundRoute, type PageRoute, pageRoutes } from './routes';
import { RequestProvider } from './sign-in-request/RequestContext';
import { RequestSync } from './sign-in-request/RequestSync';

function RedirectToLogin() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/login', search }} replace />;
}

/** The same redirects the server answers with a 302, for navigation inside the browser. */
function PageRedirects({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const target = pageRedirect(pathname, search);
  return target ? <Navigate to={target} replace /> : children;
}

/** A page with its texts: suspends while a page reached in the browser fetches them. */
function RoutePage({ route }: { route: PageRoute }) {
  useRouteMessages(route.messages);
  return <route.page />;
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
        <Suspense fallback={<PageLoader />}>
          <RequestSync />
          <Routes>
            <Route path="/" element={<RedirectToLogin />} />
            {pageRoutes.map((route) => (
              <Route key={route.path} path={route.path} element={<RoutePage route={route} />} />
            ))}
            <Route path="*" element={<RoutePage route={notFoundRoute} />} />
          </Routes>
        </Suspense>
      </RequestProvider>
    </PageRedirects>
  );
}
