/**
 * Text for HTML: `& < > " '` as numeric character references, so the result is safe in element
 * content and in quoted attribute values (a `srcdoc` too). Every page and e-mail the apps write by
 * hand goes through this one function.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
