import { passwordSetForm } from '@concierge/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { passwordSetErrorKey } from '../../api/error-keys';
import { callPortal } from '../../api/portal-api';
import {
  forgetResetLink,
  type ResetLinkIds,
  rememberedResetLink,
  rememberResetLink,
} from '../../app/session-params';
import { useTenant } from '../../config/tenant';
import { assignLocation, currentLocation } from '../../hooks/browser-location';
import { useDropQueryParameters } from '../../hooks/use-drop-query-parameters';
import { useHydrated } from '../../hooks/use-hydrated';
import { linkWithQuery } from '../../hooks/use-link-with-query';
import { usePageForm } from '../../hooks/use-page-form';
import { trustedRedirectTarget, withSubdomain } from './redirect-target';

/**
 * spec §2: the link's parameters, each with the name the missing-parameter message uses. cidaas's
 * hosted-page example writes `exchangeId`, its newer docs `exchangeid`: either is the exchange id.
 */
const REQUIRED_PARAMETERS = [
  { query: ['requestId'], name: 'requestId' },
  { query: ['rprq'], name: 'resetRequestId' },
  { query: ['exchangeId', 'exchangeid'], name: 'exchangeId' },
] as const satisfies readonly { query: readonly string[]; name: keyof ResetLinkIds }[];

type LinkParameter = (typeof REQUIRED_PARAMETERS)[number]['name'];

/** The one-time reset ids: the next page has no use for them. */
export const RESET_LINK_PARAMETERS = ['rprq', 'exchangeId', 'exchangeid'];

export function usePasswordSet() {
  const tenant = useTenant();
  const [, navigate] = useLocation();
  const [searchParams] = useSearchParams();
  const isHydrated = useHydrated();
  const parameter = (...names: readonly string[]) =>
    names.map((name) => searchParams.get(name)?.trim() ?? '').find(Boolean) ?? '';
  // Read once: the one-time ids leave the address bar right away, the submit still needs them.
  const [fromAddress] = useState(
    () =>
      Object.fromEntries(REQUIRED_PARAMETERS.map(({ query, name }) => [name, parameter(...query)])) as Record<
        LinkParameter,
        string
      >,
  );
  // An address with any of the one-time ids is a link (complete or not), and the tab keeps it; one
  // without them is a reload (or a restored tab) of a link whose ids left the address, and the tab's
  // copy stands in. That copy is read only once the page has hydrated: the server has none, and the
  // first render in the browser has to match the server's HTML.
  const [isLinkInAddress] = useState(() => RESET_LINK_PARAMETERS.some((name) => searchParams.has(name)));
  const fromTab = useMemo(
    () => (isHydrated && !isLinkInAddress ? rememberedResetLink(tenant.subdomain) : null),
    [isHydrated, isLinkInAddress, tenant.subdomain],
  );
  const link = fromTab ?? fromAddress;
  useEffect(() => {
    if (isLinkInAddress) rememberResetLink(tenant.subdomain, fromAddress);
  }, [isLinkInAddress, tenant.subdomain, fromAddress]);
  useDropQueryParameters(RESET_LINK_PARAMETERS);
  const missingParameter = REQUIRED_PARAMETERS.find(({ name }) => !link[name])?.name;
  const email = parameter('email');
  const error = searchParams.get('error');
  // spec §5: this form validates password and confirmation only; the link's ids go along hidden.
  const page = usePageForm(passwordSetForm, {
    send: async (body) => {
      const result = await callPortal('password-reset-set-new', body);
      if (result.ok) {
        // Used: a reload from now on has no link to offer the form for.
        forgetResetLink();
        followRedirect(result.data.redirect_uri);
      }
      return result;
    },
    errorKey: passwordSetErrorKey,
    initialError: error ? passwordSetErrorKey(error) : null,
  });

  /**
   * spec §7: follow data.redirect_uri with the subdomain added when known (the tenant the server
   * resolved from the query) — onto a trusted origin only; otherwise this portal's success page.
   * Meanwhile the page shows its success message.
   */
  function followRedirect(redirectUri: string | undefined) {
    const here = currentLocation();
    const target = redirectUri
      ? trustedRedirectTarget(redirectUri, [here.origin, tenant.portalUrl], here.href)
      : null;
    if (target) {
      assignLocation(withSubdomain(target, tenant.isRequested ? tenant.subdomain : undefined).href);
    } else {
      navigate(linkWithQuery('/password-set-success', searchParams, { omit: RESET_LINK_PARAMETERS }));
    }
  }

  return {
    ...page,
    link,
    missingParameter,
    /**
     * Before the page has hydrated, a missing parameter of an address without the one-time ids may
     * still be in the tab's copy of the link: only a browser without JavaScript learns it is missing.
     */
    mayFindLinkInTab: !isHydrated && !isLinkInAddress,
    email,
  };
}
