import { isUnsafeText } from '@concierge/contracts';
import type { MultipartFile } from '@fastify/multipart';

/**
 * A console form's fields as the parsers give them (console-routes.ts): a text, a list of texts
 * (several boxes ticked), or an uploaded file as an Upload.
 */
export type Fields = Record<string, unknown>;

/** A file a form sent: its bytes and the type the browser named. */
export interface Upload {
  bytes: Buffer;
  mediaType: string;
  fileName: string;
}

export function textOf(fields: Fields, name: string): string {
  const value = fields[name];
  return typeof value === 'string' ? value : '';
}

/** The file of a field; undefined when none was chosen (a browser sends an empty part then). */
export function uploadOf(fields: Fields, name: string): Upload | undefined {
  const value = fields[name];
  return isUpload(value) && value.bytes.length > 0 ? value : undefined;
}

/** The fields whose text may span lines: a typed list of units, a stylesheet. */
const MULTI_LINE_FIELDS = new Set(['units', 'stylesheet']);

/**
 * The first field (by name) holding a control character, a lone surrogate or a value that is neither
 * text, a list of texts nor an upload; undefined when all are safe. A line break and a tab count as
 * text in the multi-line fields only. NUL never: PostgreSQL refuses it.
 */
export function unsafeFieldOf(fields: Fields): string | undefined {
  for (const [name, value] of Object.entries(fields)) {
    if (isUnsafeText(name)) return 'field name';
    if (isUpload(value)) continue;
    const texts = [value].flat();
    const lineBreaks = MULTI_LINE_FIELDS.has(name);
    for (const text of texts) {
      if (typeof text !== 'string') return name;
      if (isUnsafeText(lineBreaks ? text.replace(/\r\n|[\n\r\t]/g, ' ') : text)) return name;
    }
  }
  return undefined;
}

function isUpload(value: unknown): value is Upload {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as Upload).bytes);
}

/** @fastify/multipart's onFile: a file part read whole (within the upload limit) into an Upload. */
export async function readUpload(part: MultipartFile): Promise<void> {
  const upload: Upload = { bytes: await part.toBuffer(), mediaType: part.mimetype, fileName: part.filename };
  (part as unknown as { value: Upload }).value = upload;
}
