export const FULL_CHROMIUM: string;
export const HEADLESS_CHROMIUM: string;
/** `CHROMIUM_PATH` when set, else Debian's headless Chromium when installed, else /usr/bin/chromium. */
export function testBrowserPath(
  env?: Record<string, string | undefined>,
  isInstalled?: (path: string) => boolean,
): string;
