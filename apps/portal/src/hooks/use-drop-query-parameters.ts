import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Takes one-time tokens out of the address bar (history.replaceState through the router, the other
 * parameters kept): the URL would otherwise stay in the history, in bookmarks and in screenshots.
 * The page must have read them into its own state first; `isReady` says when it has no further use
 * for them in the URL.
 */
export function useDropQueryParameters(names: readonly string[], isReady = true) {
  const [searchParams, setSearchParams] = useSearchParams();
  const isPresent = names.some((name) => searchParams.has(name));
  useEffect(() => {
    if (!isReady || !isPresent) return;
    const kept = new URLSearchParams(searchParams);
    for (const name of names) kept.delete(name);
    setSearchParams(kept, { replace: true });
  }, [isReady, isPresent, names, searchParams, setSearchParams]);
}
