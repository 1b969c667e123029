import { createContext, type ReactNode, type RefObject, useContext, useEffect, useState } from 'react';
import { useLocation } from 'wouter';

/** Whether the visitor has moved to another page inside the browser since the page load. */
const MovedOnContext = createContext(false);

/**
 * Notes the first move to another page (another path; a changed query is the same page). Above
 * the pages, so that it outlives each of them.
 */
export function NavigationTracker({ children }: { children: ReactNode }) {
  const [pathname] = useLocation();
  const [firstPathname] = useState(pathname);
  const [movedOn, setMovedOn] = useState(false);
  if (!movedOn && pathname !== firstPathname) setMovedOn(true);
  return <MovedOnContext value={movedOn}>{children}</MovedOnContext>;
}

/**
 * WCAG 2.4.3 focus order: a link to another page of the portal is followed inside the browser, and
 * the link that had the focus vanishes with the page it was on — the focus falls to the document,
 * and the next Tab leaves the page (issue 12, found by the keyboard test). The new page's heading
 * takes it instead, where a screen reader starts reading and Tab goes on into the page. Only on a
 * page reached inside the browser (a link, back or forward): the page load keeps the browser's own
 * start, and a message that took the focus on the new page (it runs first, as a child) keeps it.
 */
export function useFocusHeadingAfterNavigation(heading: RefObject<HTMLElement | null>) {
  const movedOn = useContext(MovedOnContext);
  useEffect(() => {
    if (!movedOn) return;
    const active = document.activeElement;
    if (active === null || active === document.body) heading.current?.focus();
  }, [movedOn, heading]);
}
