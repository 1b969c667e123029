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
 * imports. A tiny module of its own, imported by nothing, since the CSP allows no inline script.
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

/**
 * After the frame that follows `load`: the logo has arrived by `load`, but it is painted in the next
 * frame, and scripts asked for before that paint still compete with it (Lighthouse's slow-4G
 * estimate counted them in three runs of five). A hidden tab paints no frame, so it starts at
 * once.
 */
function afterNextPaint(): void {
  if (document.visibilityState === 'hidden') {
    startScripts();
    return;
  }
  requestAnimationFrame(() => setTimeout(startScripts, 0));
}

if (document.readyState === 'complete') afterNextPaint();
else window.addEventListener('load', afterNextPaint, { once: true });

// A module (the page loads it as one), though it exports nothing.
export {};
