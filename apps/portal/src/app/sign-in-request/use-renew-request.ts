import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { matchPageRoute } from '../routes';
import { type RequestSeed, useReplaceSeed, useRequestContext } from './RequestContext';

/**
 * issue 28: a page the tenant comes back to (another tab, the mail app, a phone restoring a
 * discarded tab) may hold a sign-in request that was used meanwhile — by a second tab of the same
 * address — or has expired. On return it asks the server (`/sign-in-request.json`, checked anew at
 * the provider), which answers the same request, a fresh one, or that the provider is away; the form
 * then posts with what holds, and the address takes it. A page rendered with the provider away asks
 * once after load as well. A tenant who sends the form in the instant
 * before the answer comes posts with the old one, as without this.
 */
export function useRenewRequestOnReturn(): void {
  const replaceSeed = useReplaceSeed();
  const { notice } = useRequestContext();
  // Rendered while the provider did not answer in time: once the page has loaded it asks again, so
  // that a moment's slowness does not leave the tenant with an outage message.
  const [askOnLoad] = useState(notice === 'provider_unreachable');
  const [pathname] = useLocation();
  const search = useSearch();
  const needsRequest = matchPageRoute(pathname).needsSignInRequest;

  useEffect(() => {
    if (!needsRequest) return;
    let asking: AbortController | undefined;
    async function renew() {
      if (document.visibilityState !== 'visible') return;
      asking?.abort();
      asking = new AbortController();
      const query = new URLSearchParams(search);
      query.set('path', pathname);
      try {
        const response = await fetch(`/sign-in-request.json?${query}`, {
          headers: { accept: 'application/json' },
          signal: asking.signal,
        });
        if (!response.ok) return;
        const answer = (await response.json()) as RequestSeed;
        replaceSeed((current) => ({
          ...current,
          // Without one (the provider away), the page keeps what it had: it may still hold.
          signInRequest: answer.signInRequest ?? current.signInRequest,
          notice: answer.notice,
        }));
      } catch {
        // No answer: the page stays as it was.
      }
    }
    if (askOnLoad) void renew();
    const onPageShow = (event: PageTransitionEvent) => {
      // Restored from the back-forward cache: as good as a return.
      if (event.persisted) void renew();
    };
    // Shown again after another tab; resumed after the phone froze the tab in the background.
    document.addEventListener('visibilitychange', renew);
    document.addEventListener('resume', renew);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      asking?.abort();
      document.removeEventListener('visibilitychange', renew);
      document.removeEventListener('resume', renew);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [needsRequest, pathname, search, replaceSeed, askOnLoad]);
}
