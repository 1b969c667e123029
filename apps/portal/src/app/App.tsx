import { Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { notFoundRoute, pageRoutes } from './routes';

function RedirectToLogin() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/login', search }} replace />;
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
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route path="/" element={<RedirectToLogin />} />
        {pageRoutes.map(({ path, page: Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<notFoundRoute.page />} />
      </Routes>
    </Suspense>
  );
}
