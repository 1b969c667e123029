import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('writes the five characters that can end text or a quoted attribute as character references', () => {
    expect(escapeHtml(`<b>"R&D"</b> it's`)).toBe('&#60;b&#62;&#34;R&#38;D&#34;&#60;/b&#62; it&#39;s');
  });

  it('leaves everything else as it is', () => {
    expect(escapeHtml('Gérance du Léman — 100 % ✓')).toBe('Gérance du Léman — 100 % ✓');
  });
});
