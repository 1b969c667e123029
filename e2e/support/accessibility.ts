import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type * as Axe from 'axe-core';

declare global {
  interface Window {
    axe: typeof Axe;
  }
}

/** WCAG 2.2 A and AA, as the product promises (issue 12). */
export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core itself, put into a document once. @axe-core/playwright evaluated its 0.55 MB twice on
 * every check (once to look, once more per frame in its legacy mode): 160 of a check's 290 ms of the
 * page's CPU, and 90 checks per run. The portal has no frames, so axe runs in the page itself.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's violations on the page as it is now, in a form that says what and where: WCAG 2.2 AA's
 * rules, or with 'all rules' axe's best practices too.
 */
export async function axeViolations(
  page: Page,
  rules: 'wcag22aa' | 'all rules' = 'wcag22aa',
): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // axe reads colours as painted: a dialog still fading in has a fraction of its contrast. Every
  // transition that ends (not a spinner's endless turn) has ended first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const violations = await page.evaluate(
    (tags) =>
      // only the violations in detail: axe then skips describing every passing node, which halves its time
      window.axe
        .run(document, {
          resultTypes: ['violations'],
          ...(tags ? { runOnly: { type: 'tag', values: tags } } : {}),
        })
        .then((results) => results.violations),
    rules === 'all rules' ? null : WCAG_22_AA,
  );
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${node.failureSummary}`,
    ),
  );
}

export async function expectNoAxeViolations(page: Page, where: string) {
  expect(await axeViolations(page), `axe on ${where}`).toEqual([]);
}

/** The page each JavaScript-less page is checked in, made once per such page and closed with it. */
const checkers = new WeakMap<Page, Promise<Page>>();

/** A blank page of `origin` that runs scripts, axe loaded: documents are written into it to be checked. */
async function checkerFor(page: Page, origin: string): Promise<Page> {
  let checker = checkers.get(page);
  if (!checker) {
    checker = (async () => {
      // JavaScript on explicitly: a page made in a test takes the test's options, JavaScript off included.
      const made = await page.context().browser()!.newPage({ javaScriptEnabled: true });
      page.once('close', () => void made.close());
      const blank = `${origin}/__axe-checker`;
      await made.route(blank, (route) => route.fulfill({ body: '<!doctype html><title>axe</title>' }));
      await made.goto(blank);
      await made.evaluate(AXE_SOURCE);
      return made;
    })();
    checkers.set(page, checker);
  }
  return checker;
}

/**
 * axe on a page whose JavaScript is off (issue 25): such a page runs no script, axe included, so
 * its document as it is now — scripts taken out — is written into a page of the same origin that
 * runs them, its stylesheets and images loaded from the portal as in the original. One such page
 * serves every check of a test: document.open() keeps its window, axe included. A page and axe's
 * 0.55 MB compiled anew for each check cost 1.9 CPU-seconds a check, half a JavaScript-less walk.
 */
export async function expectNoAxeViolationsWithoutScript(page: Page, where: string) {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '');
  const checker = await checkerFor(page, new URL(page.url()).origin);
  await checker.evaluate(async (document_) => {
    document.open();
    document.write(document_);
    document.close();
    // axe reads colours as painted: every stylesheet and image of the document has loaded first.
    const pending = Array.from(
      document.querySelectorAll<HTMLLinkElement | HTMLImageElement>('link[rel="stylesheet"], img'),
    )
      .filter((element) => (element instanceof HTMLLinkElement ? !element.sheet : !element.complete))
      .map(
        (element) =>
          new Promise((resolve) => {
            element.addEventListener('load', resolve, { once: true });
            element.addEventListener('error', resolve, { once: true });
          }),
      );
    await Promise.all(pending);
  }, html);
  await expectNoAxeViolations(checker, where);
}

/**
 * WCAG 1.4.10 and 1.4.4: what does not fit. The page must not scroll sideways, and no button,
 * label, title, link, message or text may be cut off (its content wider or taller than its box
 * where the box clips, an ellipsis in effect) or run out of the window. Gives one line per offender.
 */
export function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    const viewportWidth = root.clientWidth;
    if (root.scrollWidth > viewportWidth) {
      problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${viewportWidth} px`);
    }
    const selector = [
      'button',
      'a',
      'label',
      'h1',
      'h2',
      'h3',
      'p',
      '[role="alert"]',
      '[role="status"]',
      '.mantine-Button-label',
      '.mantine-Alert-title',
      '.mantine-Alert-message',
      '.mantine-InputWrapper-label',
      '.mantine-InputWrapper-description',
      '.mantine-InputWrapper-error',
      '.mantine-Checkbox-label',
    ].join(',');
    const describe = (element: Element) =>
      `<${element.tagName.toLowerCase()}${
        element.className
          ? ` class="${
              String(element.className)
                .split(' ')
                .find((name) => name.startsWith('mantine-')) ?? ''
            }"`
          : ''
      }> "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden') continue;
      // a dialog's content scrolls on its own; what is inside it counts against the dialog's width
      if (rect.right > viewportWidth + 1 || rect.left < -1) {
        problems.push(
          `${describe(element)} runs out of the window: ${Math.round(rect.left)}–${Math.round(rect.right)} px`,
        );
        continue;
      }
      if (style.display === 'inline') continue;
      if (element.scrollWidth > element.clientWidth + 1) {
        problems.push(
          `${describe(element)} is cut off: ${element.scrollWidth} > ${element.clientWidth} px wide`,
        );
        continue;
      }
      const clipsVertically = ['hidden', 'clip'].includes(style.overflowY);
      if (clipsVertically && element.scrollHeight > element.clientHeight + 1) {
        problems.push(
          `${describe(element)} is cut off: ${element.scrollHeight} > ${element.clientHeight} px high`,
        );
        continue;
      }
      if (
        style.textOverflow === 'ellipsis' &&
        style.overflowX !== 'visible' &&
        element.scrollWidth > element.clientWidth
      ) {
        problems.push(`${describe(element)} ends in an ellipsis`);
      }
    }
    return problems;
  });
}

/** WCAG 1.4.4: text at 200 % — Mantine sizes text and spacing in rem, so the root font size is the zoom of text. */
export async function setTextSize(page: Page, percent: number) {
  await page.evaluate((size) => {
    document.documentElement.style.fontSize = `${size}%`;
  }, percent);
}

/**
 * WCAG 2.4.7 (and 1.4.11 for the indicator itself): how the focused element shows its focus — an
 * outline or a box-shadow ring on it or on the field box around it (a password field's box carries
 * the ring of its inner input) — with the ring's contrast against white. Null when nothing shows.
 */
export function focusIndicator(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body) return null;
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((value) => {
        const channel = value / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const contrastOnWhite = (color: string) => {
      const rgb = color
        .match(/[\d.]+/g)
        ?.slice(0, 3)
        .map(Number);
      return rgb && rgb.length === 3 ? 1.05 / (luminance(rgb) + 0.05) : null;
    };
    const candidates = [focused, focused.closest<HTMLElement>('.mantine-Input-input')].filter(
      (element): element is HTMLElement => element !== null,
    );
    for (const element of candidates) {
      const style = getComputedStyle(element);
      if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) {
        return {
          element: element === focused ? 'itself' : 'its field box',
          kind: `outline ${style.outlineWidth} ${style.outlineStyle}`,
          contrast: contrastOnWhite(style.outlineColor),
        };
      }
      if (style.boxShadow !== 'none') {
        return {
          element: element === focused ? 'itself' : 'its field box',
          kind: `box-shadow ${style.boxShadow}`,
          contrast: contrastOnWhite(style.boxShadow),
        };
      }
    }
    return null;
  });
}

/** Names the focused element: for the test's messages. */
export function focusedElement(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return 'nothing';
    const name =
      element.getAttribute('aria-label') ??
      element.getAttribute('name') ??
      element.textContent?.trim().slice(0, 40);
    return `<${element.tagName.toLowerCase()}> ${name ?? ''}`;
  });
}

/** Tab (or Shift+Tab) once and check the element that got the focus shows it, at 3:1 on white. */
export async function tab(page: Page, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  await page.keyboard.press(key);
  const indicator = await focusIndicator(page);
  const focused = await focusedElement(page);
  expect(indicator, `the focus on ${focused} is visible`).not.toBeNull();
  if (indicator?.contrast != null) {
    expect(indicator.contrast, `the focus ring on ${focused} (${indicator.kind})`).toBeGreaterThanOrEqual(3);
  }
  return focused;
}

/** Tabs until the locator's element has the focus, checking every stop on the way. */
export async function tabTo(
  page: Page,
  target: ReturnType<Page['locator']>,
  key: 'Tab' | 'Shift+Tab' = 'Tab',
  stops = 20,
) {
  for (let stop = 0; stop < stops; stop += 1) {
    await tab(page, key);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${key} never reached ${target}`);
}
