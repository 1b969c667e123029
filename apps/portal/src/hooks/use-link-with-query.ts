import { useSearchParams } from 'wouter';

/** Query values that belong to the page that received them and must not follow the visitor. */
const PAGE_OWN_PARAMETERS = ['error', 'error_description'];

export interface LinkWithQueryOptions {
  /** Values to set (or replace) in the carried query; undefined leaves the current value. */
  set?: Record<string, string | undefined>;
  /** Parameters to leave behind, e.g. one-time ids that the next page has no use for. */
  omit?: readonly string[];
}

/**
 * A link target on this portal that keeps the current query (subdomain, requestId …), so that the
 * next page shows the same brand and belongs to the same sign-in request. `error` stays behind: it
 * describes the page it came with.
 */
export function useLinkWithQuery(pathname: string, options: LinkWithQueryOptions = {}) {
  const [searchParams] = useSearchParams();
  return linkWithQuery(pathname, searchParams, options);
}

export function linkWithQuery(
  pathname: string,
  current: URLSearchParams,
  { set = {}, omit = [] }: LinkWithQueryOptions = {},
): string {
  const params = new URLSearchParams(current);
  for (const name of [...PAGE_OWN_PARAMETERS, ...omit]) params.delete(name);
  for (const [name, value] of Object.entries(set)) if (value !== undefined) params.set(name, value);
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}
