import { type RefObject, useEffect } from 'react';
import { useNavigationType } from 'react-router';

/**
 * WCAG 2.4.3 focus order: a link to another page of the portal is followed inside the browser, and
 * the link that had the focus vanishes with the page it was on — the focus falls to the document,
 * and the next Tab leaves the page (issue 12, found by the keyboard test). The new page's heading
 * takes it instead, where a screen reader starts reading and Tab goes on into the page. Only after
 * a link (PUSH): a first page load or a redirect keeps the browser's own start, and a message that
 * took the focus on the new page (it runs first, as a child) keeps it.
 */
export function useFocusHeadingAfterNavigation(heading: RefObject<HTMLElement | null>) {
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'PUSH') return;
    const active = document.activeElement;
    if (active === null || active === document.body) heading.current?.focus();
  }, [navigationType, heading]);
}
