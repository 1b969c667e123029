import { type RefObject, useEffect } from 'react';

/**
 * What counts as "the page shows an error" (WCAG 3.3.1, issue 12): a message announced as an alert
 * (ErrorMessage) or a field marked invalid. While one is shown, the browser tab's title says so
 * ("Fehler: Anmelden"), so that a screen reader user hears it with the page and whoever switches
 * back to the tab sees it. The server applies the same rule to the HTML it renders.
 */
const ERROR_SHOWN = '[role="alert"], [aria-invalid="true"]';
const ERROR_SHOWN_IN_HTML = /\srole="alert"|\saria-invalid="true"/;

/**
 * The browser tab's title (WCAG 2.4.2): the page's own title, then whose portal it is, so that a
 * tab, a bookmark or the history names the tenant too: "Anmelden – Demo Immobilien AG". The same
 * for the server's <title> and the browser's document.title.
 */
export function documentTitle(pageTitle: string, tenantName: string): string {
  const tenant = tenantName.trim();
  return tenant ? `${pageTitle} – ${tenant}` : pageTitle;
}

/** For the server's <title>: whether the rendered page shows an error. */
export function htmlShowsError(html: string): boolean {
  return ERROR_SHOWN_IN_HTML.test(html);
}

/**
 * Keeps document.title at the page title, or at the error title while the content shows an error:
 * errors come and go with what the visitor does (a submit, a field corrected), so the content is
 * watched rather than every page having to report them.
 */
export function useDocumentTitle(title: string, errorTitle: string, content: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = content.current;
    const update = () => {
      const next = element?.querySelector(ERROR_SHOWN) ? errorTitle : title;
      if (document.title !== next) document.title = next;
    };
    update();
    if (!element) return;
    const observer = new MutationObserver(update);
    observer.observe(element, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['role', 'aria-invalid'],
    });
    return () => observer.disconnect();
  }, [title, errorTitle, content]);
}
