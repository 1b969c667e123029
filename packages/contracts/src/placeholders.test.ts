import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './placeholders';

describe('fillPlaceholders', () => {
  it('fills every {{name}}, with or without spaces inside the braces', () => {
    expect(fillPlaceholders('Hello {{ name }}, {{count}} new', { name: 'Anna', count: 2 })).toBe(
      'Hello Anna, 2 new',
    );
  });

  it('refuses a placeholder without a value instead of leaving it in the text', () => {
    expect(() => fillPlaceholders('Hello {{name}}', {})).toThrow('{{name}}');
    expect(() => fillPlaceholders('{{toString}}', {})).toThrow('{{toString}}');
  });

  it('puts values in as they are: escaping is the caller’s, for HTML', () => {
    expect(fillPlaceholders('{{a}}', { a: '<b>{{b}}</b>' })).toBe('<b>{{b}}</b>');
  });
});
