import { describe, expect, it } from 'vitest';
import { isStrongPassword, listedSpecialCharacters } from './password';

describe('the password rule (spec §5)', () => {
  it.each([
    ['Passw0rd!', true],
    ['ÄÖÜ-gross-1', true],
    ['Élan-vital-9', true],
    ['ärger-0!X'.toLowerCase(), false],
    ['NOLOWER-1', false],
    ['Nodigit-!', false],
    ['NoSpecial1', false],
    ['Ab1!', false],
    [`Ab1!${'x'.repeat(36)}`, false],
  ])('%s strong: %s', (password, strong) => {
    expect(isStrongPassword(password)).toBe(strong);
  });

  it('counts "Ä" as a capital and "é" as a small letter, as a Swiss tenant types them', () => {
    expect(isStrongPassword('älter-ÄLTER-1')).toBe(true);
    expect(isStrongPassword('ÉCOLE-été-2')).toBe(true);
  });

  it('lists every accepted special character for the page, "€" not among them', () => {
    const listed = listedSpecialCharacters().split(' ');
    expect(listed).toContain('!');
    expect(listed).toContain('~');
    expect(listed).not.toContain('€');
    expect(isStrongPassword('Preis-100€x')).toBe(true);
    expect(isStrongPassword('Preis100€x')).toBe(false);
  });
});
