import { useEffect } from 'react';
import { useSearchParams } from 'wouter';
import { useHydrated } from './use-hydrated';

/**
 * Takes one-time tokens out of the address bar (history.replaceState through the router, the other
 * parameters kept): the URL would otherwise stay in the history, in bookmarks and in screenshots.
 * The page must have read them into its own state first; `isReady` says when it has no further use
 * for them in the URL.
 */
export function useDropQueryParameters(names: readonly string[], isReady = true) {
  const [searchParams, setSearchParams] = useSearchParams();
  // Not in the hydration's own commit: the address the server rendered stays until the page is live.
  const isHydrated = useHydrated();
  const isPresent = names.some((name) => searchParams.has(name));
  useEffect(() => {
    if (!isHydrated || !isReady || !isPresent) return;
    const kept = new URLSearchParams(searchParams);
    for (const name of names) kept.delete(name);
    setSearchParams(kept, { replace: true });
  }, [isHydrated, isReady, isPresent, names, searchParams, setSearchParams]);
}
