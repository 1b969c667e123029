/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = [header, ...rows].map((row) => row.map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
