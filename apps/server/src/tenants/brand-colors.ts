import { generateColors } from '@mantine/colors-generator';
import chroma from 'chroma-js';

export interface BrandColors {
  shades: string[];
  /** The shade nearest the brand colour: filled buttons wear it. */
  primaryShade: number;
  primaryContrastText: '#000000' | '#ffffff';
  /** The brand colour's shade that reads as text on white (links), at WCAG AA contrast. */
  linkColor: string;
}

const AA_NORMAL_TEXT = 4.5;

/**
 * One brand colour → the 10 shades Mantine expects, and the colours that keep text readable on and
 * next to them. The registry's colour is never trusted to be readable: black or white text is
 * chosen by contrast (one of the two always reaches 4.5:1), and links take the lightest shade at or
 * above the brand's own that still reaches 4.5:1 on white.
 */
export function deriveBrandColors(primaryColor: string): BrandColors {
  const shades = generateColors(primaryColor).map((shade) => chroma(shade).hex());
  const primaryShade = shades.reduce(
    (best, shade, index) =>
      chroma.deltaE(shade, primaryColor) < chroma.deltaE(shades[best]!, primaryColor) ? index : best,
    0,
  );
  const filled = shades[primaryShade]!;
  const primaryContrastText =
    chroma.contrast(filled, '#ffffff') >= chroma.contrast(filled, '#000000') ? '#ffffff' : '#000000';
  const linkColor =
    shades.slice(primaryShade).find((shade) => chroma.contrast(shade, '#ffffff') >= AA_NORMAL_TEXT) ??
    chroma(shades[9]!).darken(1.5).hex();
  return { shades, primaryShade, primaryContrastText, linkColor };
}

export function contrastRatio(a: string, b: string): number {
  return chroma.contrast(a, b);
}
