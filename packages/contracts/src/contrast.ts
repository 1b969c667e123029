// WCAG 2 contrast, the one rule for text on a brand colour: the server's brand colours, the
// provider's e-mails and the portal's Mantine theme (luminanceThreshold) all use it.

const WHITE = '#ffffff';
const BLACK = '#000000';

/**
 * The relative luminance at which black and white text reach the same contrast on a colour:
 * (L + 0.05) / 0.05 = 1.05 / (L + 0.05) at L ≈ 0.179. Above it black reads better, at or below it
 * white; either way the better of the two reaches at least 4.5:1.
 */
export const BLACK_TEXT_LUMINANCE_THRESHOLD = 0.179;

/** One channel (0–255) as WCAG 2 linear light. */
function linear(channel: number): number {
  const value = channel / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance of a `#rgb` or `#rrggbb` colour: 0 (black) to 1 (white). */
export function relativeLuminance(color: string): number {
  const digits = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (!digits) throw new Error(`not a #rgb or #rrggbb colour: ${color}`);
  const hex = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  const channel = (index: number) => linear(Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16));
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const [first, second] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}

/** Black or white, whichever has the higher WCAG contrast on the background. */
export function readableTextColor(background: string): '#000000' | '#ffffff' {
  return relativeLuminance(background) > BLACK_TEXT_LUMINANCE_THRESHOLD ? BLACK : WHITE;
}
