import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's HTML and during hydration, true once the page is live. Forms that work only
 * through JavaScript keep their submit button disabled until then: a form sent by the browser on
 * its own would go out as a GET, with the passwords in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
