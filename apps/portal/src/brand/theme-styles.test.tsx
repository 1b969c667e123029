import { describe, expect, it } from 'vitest';
import { testTenant } from '../test/fixtures';
import { themeStyles } from './theme-styles';

describe("a brand's theme styles in the page's head", () => {
  // The fixture's brand takes shade 9, so Mantine moves every palette colour's filled shade.
  const styles = themeStyles(testTenant.design);

  it('keep the colours the pages show, in the brand’s shade', () => {
    for (const colour of ['brand', 'red', 'green', 'yellow', 'gray']) {
      expect(styles).toContain(`--mantine-color-${colour}-filled: var(--mantine-color-${colour}-9);`);
    }
    expect(styles).toContain('--mantine-primary-color-filled: var(--mantine-color-brand-filled);');
  });

  it('leave out the colours no page shows and the dark scheme no page takes', () => {
    expect(styles).not.toMatch(/--mantine-color-(teal|pink|grape|violet|indigo|blue|cyan|lime|orange)-/);
    expect(styles).not.toContain('data-mantine-color-scheme="dark"');
    expect(styles).toContain(':root[data-mantine-color-scheme="light"]');
  });
});
