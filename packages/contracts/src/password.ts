// spec §5 and §9: length 6 to 39 with an upper-case and a lower-case letter, a digit and a special
// character. The spec hides the special set; this is the ASCII punctuation cidaas accepts, and the
// pages list it beside the field. Letters are any language's: "Ä" is a capital, "é" a small letter.
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 39;
export const PASSWORD_SPECIAL_CHARACTERS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export function isStrongPassword(value: string): boolean {
  if (value.length < PASSWORD_MIN_LENGTH || value.length > PASSWORD_MAX_LENGTH) return false;
  return (
    /\p{Lu}/u.test(value) &&
    /\p{Ll}/u.test(value) &&
    /[0-9]/.test(value) &&
    [...value].some((character) => PASSWORD_SPECIAL_CHARACTERS.includes(character))
  );
}

/** The special characters as the pages list them: one after the other, spaced. */
export function listedSpecialCharacters(): string {
  return [...PASSWORD_SPECIAL_CHARACTERS].join(' ');
}
