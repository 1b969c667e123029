import { describe, expect, it } from 'vitest';
import { contrastRatio, deriveBrandColors } from './brand-colors';

describe('deriveBrandColors', () => {
  it('makes ten shades, the brand colour among them, lightest first', () => {
    const colors = deriveBrandColors('#1864ab');
    expect(colors.shades).toHaveLength(10);
    expect(colors.shades.every((shade) => /^#[0-9a-f]{6}$/.test(shade))).toBe(true);
    expect(contrastRatio(colors.shades[0]!, '#ffffff')).toBeLessThan(
      contrastRatio(colors.shades[9]!, '#ffffff'),
    );
    expect(contrastRatio(colors.shades[colors.primaryShade]!, '#1864ab')).toBeLessThan(1.2);
  });

  it.each(['#1864ab', '#ffd43b', '#e8590c', '#2b8a3e', '#000000', '#ffffff', '#777777', '#ff00ff'])(
    'keeps text on and beside %s at WCAG AA contrast',
    (brand) => {
      const colors = deriveBrandColors(brand);
      const filled = colors.shades[colors.primaryShade]!;
      expect(contrastRatio(filled, colors.primaryContrastText)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(colors.linkColor, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('puts dark text on a light brand and white text on a dark one', () => {
    expect(deriveBrandColors('#ffd43b').primaryContrastText).toBe('#000000');
    expect(deriveBrandColors('#0b3d91').primaryContrastText).toBe('#ffffff');
  });
});
