import { describe, expect, it } from 'vitest';
import { contrastRatio, readableTextColor, relativeLuminance } from './contrast';

describe('WCAG contrast', () => {
  it('measures relative luminance and contrast as WCAG 2 defines them', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#fff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#000000')).toBe(21);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('puts black text on light colours and white text on dark ones', () => {
    expect(readableTextColor('#ffd43b')).toBe('#000000');
    expect(readableTextColor('#0b3d91')).toBe('#ffffff');
    expect(readableTextColor('#1d3a6e')).toBe('#ffffff');
  });

  it.each(['#000000', '#ffffff', '#777777', '#808080', '#ff00ff', '#1864ab', '#e8590c', '#2b8a3e'])(
    'always reaches 4.5:1 with the text colour it picks on %s',
    (background) => {
      expect(contrastRatio(background, readableTextColor(background))).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('refuses what is not a hex colour', () => {
    expect(() => relativeLuminance('red')).toThrow('not a #rgb or #rrggbb colour');
  });
});
