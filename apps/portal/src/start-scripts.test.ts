import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The page's one script (start-scripts.ts) as the browser meets it: the element the server writes,
// then `load`. The module acts when it is imported, so each test imports it afresh.
const ENTRY = '/assets/entry-client-abc.js';
const PRELOADS = ['/assets/shared-def.js', '/assets/Login-ghi.js'];

function startedScripts() {
  return {
    entry: [
      ...document.head.querySelectorAll<HTMLScriptElement>('script[type="module"]:not([data-entry])'),
    ].map((script) => script.getAttribute('src')),
    preloads: [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((link) =>
      link.getAttribute('href'),
    ),
  };
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
}

beforeEach(() => {
  vi.resetModules();
  // The files of a worker share its document, and every page rendered in one marks it hydrated.
  document.documentElement.removeAttribute('data-hydrated');
  vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'setTimeout'] });
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'interactive' });
  const element = document.createElement('script');
  element.type = 'module';
  element.src = '/assets/start-scripts-xyz.js';
  element.dataset.entry = ENTRY;
  element.dataset.preloads = PRELOADS.join(' ');
  document.head.replaceChildren(element);
});

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'readyState');
  Reflect.deleteProperty(document, 'visibilityState');
  document.head.replaceChildren();
});

describe('the start script', () => {
  it('starts nothing before load, and the entry with its chunks only frames after load', async () => {
    setVisibility('visible');
    await import('./start-scripts');
    expect(startedScripts()).toEqual({ entry: [], preloads: [] });
    window.dispatchEvent(new Event('load'));
    // The logo is painted in a frame after load: nothing is asked for before it can be shown.
    vi.advanceTimersToNextFrame();
    expect(startedScripts()).toEqual({ entry: [], preloads: [] });
    vi.runAllTimers();
    expect(startedScripts()).toEqual({ entry: [ENTRY], preloads: PRELOADS });
  });

  it('starts once the browser reports a largest paint after load, not one from before it', async () => {
    setVisibility('visible');
    let report: (entries: { startTime: number }[]) => void = () => undefined;
    vi.stubGlobal(
      'PerformanceObserver',
      Object.assign(
        class {
          constructor(callback: (list: { getEntries: () => { startTime: number }[] }) => void) {
            report = (entries) => callback({ getEntries: () => entries });
          }
          observe() {}
          disconnect() {}
        },
        { supportedEntryTypes: ['largest-contentful-paint'] },
      ),
    );
    // The clock stands still: the script's moment of `load` is the test's, however busy the machine.
    const loadedAt = 1_000;
    const now = vi.spyOn(performance, 'now').mockReturnValue(loadedAt);
    try {
      await import('./start-scripts');
      window.dispatchEvent(new Event('load'));
      report([{ startTime: loadedAt - 5 }]);
      expect(startedScripts()).toEqual({ entry: [], preloads: [] });
      report([{ startTime: loadedAt + 16 }]);
      expect(startedScripts()).toEqual({ entry: [ENTRY], preloads: PRELOADS });
      // Started once, though the frames still come.
      vi.runAllTimers();
      expect(startedScripts().entry).toEqual([ENTRY]);
    } finally {
      now.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it("keeps a form's submit and presses of links and summaries from the page's own listeners until it has hydrated", async () => {
    await import('./start-scripts');
    const form = document.createElement('form');
    const summary = document.createElement('summary');
    const other = document.createElement('button');
    other.type = 'button';
    form.append(summary, other);
    document.body.replaceChildren(form);
    const reached: string[] = [];
    // Where React listens: the page's root, below the window.
    document.body.addEventListener('submit', () => reached.push('submit'));
    document.body.addEventListener('click', (event) =>
      reached.push(`click ${(event.target as Element).tagName}`),
    );
    const press = () => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      summary.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      other.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    };
    press();
    expect(reached).toEqual(['click BUTTON']);
    document.documentElement.setAttribute('data-hydrated', '');
    try {
      reached.length = 0;
      press();
      expect(reached).toEqual(['submit', 'click SUMMARY', 'click BUTTON']);
    } finally {
      document.documentElement.removeAttribute('data-hydrated');
      document.body.replaceChildren();
      // Its wait for `load` ends here, not in the next test.
      window.dispatchEvent(new Event('load'));
      vi.runAllTimers();
    }
  });

  it('starts at once on load in a hidden tab, which paints no frame', async () => {
    setVisibility('hidden');
    await import('./start-scripts');
    window.dispatchEvent(new Event('load'));
    expect(startedScripts()).toEqual({ entry: [ENTRY], preloads: PRELOADS });
  });
});
