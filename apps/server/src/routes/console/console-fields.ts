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
  const isUpload = typeof value === 'object' && value !== null && Buffer.isBuffer((value as Upload).bytes);
  return isUpload && (value as Upload).bytes.length > 0 ? (value as Upload) : undefined;
}

/** @fastify/multipart's onFile: a file part read whole (within the upload limit) into an Upload. */
export async function readUpload(part: MultipartFile): Promise<void> {
  const upload: Upload = { bytes: await part.toBuffer(), mediaType: part.mimetype, fileName: part.filename };
  (part as unknown as { value: Upload }).value = upload;
}
