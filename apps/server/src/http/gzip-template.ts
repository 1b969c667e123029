import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A kept page (ssr/page-templates.ts) compressed once, with holes where its stand-ins stand: every
 * answer is then gzip made of the page's compressed pieces with that answer's own values between
 * them, uncompressed — no compression per request. Compressing each page anew (brotli at level 5)
 * was two fifths of the server's CPU per arrival (docs/decisions.md, "Compression").
 *
 * Each piece is compressed by a deflate stream of its own that ends in a full flush: it refers to
 * nothing before it and ends on a byte boundary, so pieces and the values' stored blocks can follow
 * one another in one deflate stream (RFC 1951, 3.2.3–3.2.4; the full flush is zlib's way to let
 * decompression start afresh at a point). The gzip trailer's CRC-32 is chained over every byte of
 * the answer (RFC 1952).
 */
export class GzipTemplate {
  /** The page's text between stand-ins, as bytes and compressed; one more than the holes. */
  readonly #pieces: { bytes: Buffer; compressed: Buffer }[];
  /** The stand-in in each hole, in order. */
  readonly #holes: string[];

  constructor(page: string, standIns: readonly string[]) {
    const parts = page.split(new RegExp(`(${standIns.map(escapeRegExp).join('|')})`));
    this.#pieces = parts
      .filter((_, index) => index % 2 === 0)
      .map((text) => {
        const bytes = Buffer.from(text, 'utf8');
        const compressed =
          bytes.length === 0
            ? Buffer.alloc(0)
            : deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
        return { bytes, compressed };
      });
    this.#holes = parts.filter((_, index) => index % 2 === 1);
  }

  /** The page with each stand-in replaced by its value (a stand-in without one stays). */
  text(values: ReadonlyMap<string, string>): string {
    return this.#pieces
      .map((piece, index) => {
        const hole = this.#holes[index];
        return piece.bytes.toString('utf8') + (hole === undefined ? '' : (values.get(hole) ?? hole));
      })
      .join('');
  }

  /** The same as gzip. */
  gzip(values: ReadonlyMap<string, string>): Buffer {
    const chunks: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let size = 0;
    const add = (bytes: Buffer, deflated: Buffer) => {
      chunks.push(deflated);
      crc = crc32(bytes, crc);
      size += bytes.length;
    };
    this.#pieces.forEach((piece, index) => {
      add(piece.bytes, piece.compressed);
      const hole = this.#holes[index];
      if (hole === undefined) return;
      const value = Buffer.from(values.get(hole) ?? hole, 'utf8');
      add(value, storedBlock(value));
    });
    chunks.push(LAST_BLOCK);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size % 2 ** 32, 4);
    chunks.push(trailer);
    return Buffer.concat(chunks);
  }
}

/** gzip's member header: deflate, no flags, no time, unknown system (RFC 1952, 2.3). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty stored block marked last: the deflate stream ends here. */
const LAST_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** Bytes as one stored block, not last, starting on a byte boundary (its 3 header bits, then padding). */
function storedBlock(bytes: Buffer): Buffer {
  if (bytes.length > 0xffff) throw new RangeError('a stored block holds at most 65535 bytes');
  const header = Buffer.from([0x00, 0, 0, 0, 0]);
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
