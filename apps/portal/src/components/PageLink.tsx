import { Anchor, type AnchorProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { matchPageRoute, pathnameOf } from '../app/routes';
import { useRequestContext } from '../app/sign-in-request/RequestContext';

/**
 * A link to another page of the portal. It opens the page inside the browser when this document has
 * what the page needs; a page that needs a sign-in request this document lacks (one rendered without,
 * e.g. while the provider was away, or a reset link's page) is loaded from the server instead, which
 * brings a fresh request — the browser never asks the provider for one itself.
 */
export function PageLink({
  to,
  children,
  ...anchorProps
}: AnchorProps & { to: string; children: ReactNode }) {
  const { requestId } = useRequestContext();
  const opensInBrowser = requestId !== '' || !matchPageRoute(pathnameOf(to)).needsSignInRequest;
  return opensInBrowser ? (
    <Anchor component={Link} to={to} {...anchorProps}>
      {children}
    </Anchor>
  ) : (
    <Anchor href={to} {...anchorProps}>
      {children}
    </Anchor>
  );
}
