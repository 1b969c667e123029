import { Loader } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { pageRedirect } from './page-redirects';
import { RequestProvider } from './RequestContext';
import { notFoundRoute, pageRoutes } from './routes';

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
          <Routes>
            <Route path="/" element={<RedirectToLogin />} />
            {pageRoutes.map(({ path, page: Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="*" element={<notFoundRoute.page />} />
          </Routes>
        </Suspense>
      </RequestProvider>
    </PageRedirects>
  );
}
