// Stops at whitespace, quotes and angle brackets, which end a URL in plain text and in markup alike.
const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;
// Sentence punctuation right after a link belongs to the sentence, not to the link.
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the entities that occur in URLs inside HTML (`&amp;` in query strings above all). */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const codePoint =
        body[1] === 'x' || body[1] === 'X'
          ? Number.parseInt(body.slice(2), 16)
          : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(codePoint) && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

function findUrls(value: string): string[] {
  return (value.match(URL_PATTERN) ?? []).map((url) => url.replace(TRAILING_PUNCTUATION, ''));
}

/** All http(s) links of a message, text part first, each once. */
export function extractLinks(text: string, html: string): string[] {
  return [...new Set([...findUrls(text), ...findUrls(decodeEntities(html))])];
}
