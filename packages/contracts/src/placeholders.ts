export type PlaceholderValues = Readonly<Record<string, string | number>>;

/**
 * Fills the `{{name}}` placeholders of a text (the portal's pages and the e-mails). A
 * placeholder without a value is a programming error — a text and its caller disagree — so it
 * throws rather than send a mail or show a page with a raw `{{name}}` in it.
 */
export function fillPlaceholders(template: string, values: PlaceholderValues): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_placeholder, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new Error(`text placeholder {{${name}}} has no value`);
    return String(value);
  });
}
