// spec §5 and §9: length 6 to 39 with an upper-case and a lower-case letter, a digit and a special
// character. The spec hides the special set; this is the ASCII punctuation cidaas accepts.
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 39;
export const PASSWORD_SPECIAL_CHARACTERS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export function isStrongPassword(value: string): boolean {
  if (value.length < PASSWORD_MIN_LENGTH || value.length > PASSWORD_MAX_LENGTH) return false;
  return (
    /[A-Z]/.test(value) &&
    /[a-z]/.test(value) &&
    /[0-9]/.test(value) &&
    [...value].some((character) => PASSWORD_SPECIAL_CHARACTERS.includes(character))
  );
}
