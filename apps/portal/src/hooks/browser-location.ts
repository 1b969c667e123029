// The browser's location in one place: only for event handlers and effects (never during render,
// the server has no window), and replaceable in tests, where jsdom cannot navigate.

/** A full page load, e.g. onto the customer's portal host. */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/** This page's own URL and origin. */
export function currentLocation(): { href: string; origin: string } {
  return { href: window.location.href, origin: window.location.origin };
}
