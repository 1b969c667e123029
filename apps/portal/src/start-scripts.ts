/**
 * Starts the portal's scripts once the page has loaded: its stylesheets and the tenant's logo first.
 *
 * The page the server sends works without them (every form posts to the server as it is, and what
 * is typed before hydration stays typed: the inputs are the browser's own, hooks/use-portal-form.ts). On a tenant's old phone on a slow connection,
 * scripts that load beside the page take bandwidth and CPU from its first screen, whatever their
 * priority: Lighthouse put the logo's paint at 2.1× that of the page without scripts. Started after
 * `load` and its next frame, they come after it (docs/decisions.md, "/login on a tenant's phone").
 *
 * The server writes this script's element with the entry (`data-entry`) and the chunks the page
 * needs (`data-preloads`): they are preloaded together, so that hydration waits on no chain of
 * imports. A tiny module of its own, imported by nothing: the server writes it inline, allowed by its
 * hash in the CSP (apps/server/src/ssr/portal-bundle.ts).
 */
function startScripts(): void {
  const element = document.querySelector<HTMLScriptElement>('script[data-entry]');
  const entry = element?.dataset.entry;
  if (!element || !entry) return;
  for (const href of (element.dataset.preloads ?? '').split(' ')) {
    if (!href) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.src = entry;
  document.head.append(script);
}

/** Frames the browser may take to show what it painted: its report of a largest paint comes then. */
const FRAMES_TO_SHOW = 3;

/**
 * Once what `load` brought has been shown. The logo has arrived by `load`, and is painted in a frame
 * after it; a script asked for before that frame is on the screen competes with it, and Lighthouse's
 * slow-4G estimate then counts the scripts into the page's largest paint (1.3–2.6× the page without
 * them in rounds where they were asked for a frame too early). The browser reports a largest paint
 * once its frame is shown: the scripts start at the first report after `load`, or — when nothing
 * larger was painted after it — a few frames on. A hidden tab paints no frame, so it starts at once.
 */
function afterLoadIsShown(): void {
  if (document.visibilityState === 'hidden') {
    startScripts();
    return;
  }
  let hasStarted = false;
  let observer: PerformanceObserver | undefined;
  const start = () => {
    if (hasStarted) return;
    hasStarted = true;
    observer?.disconnect();
    startScripts();
  };
  const loadedAt = performance.now();
  // Not in every browser a tenant may have (Safari reports no largest paint): the frames then.
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')
  ) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.startTime >= loadedAt)) start();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  }
  const afterFrames = (frames: number) =>
    frames === 0 ? setTimeout(start, 0) : requestAnimationFrame(() => afterFrames(frames - 1));
  afterFrames(FRAMES_TO_SHOW);
}

/** Set on the document by the page once it has hydrated (app/Layout.tsx): React has every event then. */
const HYDRATED_ATTRIBUTE = 'data-hydrated';
/** What the browser does alone: send a form, follow a link, open a summary's details. */
const NATIVE_UNTIL_HYDRATED = 'button[type="submit"], input[type="submit"], a[href], summary';

/**
 * Until the page has hydrated, its forms, links and summaries are the browser's own: a press of a
 * submit button (or Enter in a field, which presses it), a link or a summary, and the form's submit,
 * are kept from React's listeners, so that the browser sends, follows or opens at once, as it does
 * on the page without scripts. Otherwise React, seeing a press on a part it has not hydrated yet,
 * first hydrates that part and then answers it through the script: on a slow phone the form would
 * go out only once that work is done, and not at all if hydration failed. Other presses (the
 * show-password button) still reach React, which answers them once it has hydrated.
 */
function keepNativeUntilHydrated(): void {
  const keep = (event: Event) => {
    if (document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE)) return;
    const target = event.target instanceof Element ? event.target : null;
    if (event.type === 'submit' || target?.closest(NATIVE_UNTIL_HYDRATED)) event.stopPropagation();
  };
  window.addEventListener('click', keep, true);
  window.addEventListener('submit', keep, true);
}

keepNativeUntilHydrated();
if (document.readyState === 'complete') afterLoadIsShown();
else window.addEventListener('load', afterLoadIsShown, { once: true });

// A module (the page loads it as one), though it exports nothing.
export {};
