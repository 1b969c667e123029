import { expect, it } from 'vitest';
import { FULL_CHROMIUM, HEADLESS_CHROMIUM, testBrowserPath } from './test-browser.mjs';

it('drives the headless build when installed, the whole browser otherwise, and CHROMIUM_PATH above both', () => {
  const installed = (path: string) => path === HEADLESS_CHROMIUM;
  const missing = () => false;
  expect(testBrowserPath({}, installed)).toBe(HEADLESS_CHROMIUM);
  expect(testBrowserPath({}, missing)).toBe(FULL_CHROMIUM);
  expect(testBrowserPath({ CHROMIUM_PATH: '/opt/chrome/chrome' }, installed)).toBe('/opt/chrome/chrome');
});
