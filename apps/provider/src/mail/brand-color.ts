/** A dark blue for clients without a brand colour; white text reads on it. */
export const DEFAULT_BRAND_COLOR = '#1d3a6e';

/** Black or white, whichever has the higher WCAG contrast on the given #rrggbb background. */
export function readableTextColor(background: string): '#000000' | '#ffffff' {
  const channels = [1, 3, 5].map((start) => Number.parseInt(background.slice(start, start + 2), 16) / 255);
  const [red = 0, green = 0, blue = 0] = channels.map((value) =>
    value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  );
  const luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  // Contrast with white is 1.05 / (L + 0.05), with black (L + 0.05) / 0.05; they are equal at L ≈ 0.179.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}
