import type { BrandContrastProblem } from '@concierge/contracts';
import { contrastRatio, readableTextColor } from '@concierge/contracts';
import { generateColors } from '@mantine/colors-generator';
import chroma from 'chroma-js';

export interface BrandColors {
  shades: string[];
  /** The shade nearest the brand colour: filled buttons wear it. */
  primaryShade: number;
  primaryContrastText: '#000000' | '#ffffff';
  /** The brand colour's shade that reads as text on white (links), at WCAG AA contrast. */
  linkColor: string;
  /** A brand-tinted grey for field and checkbox borders: 3:1 on white (WCAG 1.4.11), no darker. */
  borderColor: string;
  /** The brand's shade for focus rings and ticked boxes: 3:1 on white (WCAG 1.4.11, 2.4.7). */
  focusRingColor: string;
}

const AA_NORMAL_TEXT = 4.5;
/** WCAG 1.4.11: the parts of a control needed to see it, and its focus, against what is beside them. */
const AA_NON_TEXT = 3;
/** The grey the borders start from (Mantine's gray.5): the brand tints it, contrast settles its lightness. */
const BORDER_GREY = '#adb5bd';

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
  const primaryContrastText = readableTextColor(filled);
  const linkColor =
    shades.slice(primaryShade).find((shade) => contrastRatio(shade, '#ffffff') >= AA_NORMAL_TEXT) ??
    chroma(shades[9]!).darken(1.5).hex();
  // Focus rings and ticked boxes: the brand itself where it is dark enough, else its next darker shade.
  const focusRingColor =
    shades.slice(primaryShade).find((shade) => contrastRatio(shade, '#ffffff') >= AA_NON_TEXT) ??
    darkenUntil(shades[9]!, AA_NON_TEXT);
  // Borders: a grey with a fifth of the brand's darkest shade in it, darkened just to 3:1, so that
  // fields stay quiet next to the brand-coloured focus ring and button.
  const borderColor = darkenUntil(chroma.mix(BORDER_GREY, shades[9]!, 0.2, 'rgb').hex(), AA_NON_TEXT);
  return { shades, primaryShade, primaryContrastText, linkColor, borderColor, focusRingColor };
}

/** The colour, darkened in small steps until it reaches the contrast on white (checked on the hex it ends as). */
function darkenUntil(color: string, ratio: number): string {
  let hex = chroma(color).hex();
  for (let step = 0; contrastRatio(hex, '#ffffff') < ratio && step < 100; step += 1) {
    hex = chroma(hex).darken(0.05).hex();
  }
  return hex;
}

/** What of a page contrastProblemsOf checks: the console words each in its four languages. */
export type ContrastProblem = BrandContrastProblem;

/**
 * What of a brand colour's page would not read (empty: nothing): the rules deriveBrandColors keeps
 * for every tenant the registry loads — text on the filled buttons and links at 4.5:1, field borders
 * and focus rings at 3:1 on white — checked on the colours it derives, for the console to show a
 * draft's colour's problems before it is published. Derivation meets them for every colour tried
 * (brand-colors.test.ts), so this is the guard for one it would not.
 */
export function contrastProblemsOf(primaryColor: string): ContrastProblem[] {
  const colors = deriveBrandColors(primaryColor);
  const filled = colors.shades[colors.primaryShade]!;
  const checks: { problem: ContrastProblem; color: string; on: string; minimum: number }[] = [
    { problem: 'button_text', color: colors.primaryContrastText, on: filled, minimum: AA_NORMAL_TEXT },
    { problem: 'links', color: colors.linkColor, on: '#ffffff', minimum: AA_NORMAL_TEXT },
    { problem: 'field_borders', color: colors.borderColor, on: '#ffffff', minimum: AA_NON_TEXT },
    { problem: 'focus_ring', color: colors.focusRingColor, on: '#ffffff', minimum: AA_NON_TEXT },
  ];
  return checks
    .filter(({ color, on, minimum }) => contrastRatio(color, on) < minimum)
    .map((check) => check.problem);
}
