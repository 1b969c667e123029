import type { ConsolePage } from '@concierge/contracts';
import AuditPage from '../pages/Audit';
import BatchPage from '../pages/Batch';
import BatchNewPage from '../pages/BatchNew';
import BrandPage from '../pages/Brand';
import ForbiddenPage from '../pages/Forbidden';
import HomePage from '../pages/Home';
import InvitationsPage from '../pages/Invitations';
import NotFoundPage from '../pages/NotFound';
import SignInPage from '../pages/SignIn';
import TenantPage from '../pages/Tenant';
import { useConsoleState } from './console-state-context';
import { Layout } from './Layout';

/** The page the server chose (no router: every address is the server's). */
export function ConsoleApp() {
  const { view } = useConsoleState();
  return (
    <Layout>
      <PageOf view={view} />
    </Layout>
  );
}

function PageOf({ view }: { view: ConsolePage }) {
  switch (view.page) {
    case 'sign-in':
      return <SignInPage reason={view.reason} />;
    case 'home':
      return <HomePage figures={view.figures} />;
    case 'tenant':
      return <TenantPage {...view} />;
    case 'batch-new':
      return <BatchNewPage tenant={view.tenant} form={view.form} />;
    case 'batch':
      return <BatchPage tenant={view.tenant} detail={view.detail} />;
    case 'invitations':
      return <InvitationsPage {...view} />;
    case 'brand':
      return <BrandPage {...view} />;
    case 'audit':
      return <AuditPage tenant={view.tenant} log={view.log} />;
    case 'forbidden':
      return <ForbiddenPage />;
    case 'not-found':
      return <NotFoundPage />;
  }
}
