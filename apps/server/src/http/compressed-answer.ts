import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GzipTemplate } from './gzip-template';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// A page is rendered anew for every request: a fast brotli level (the assets, compressed once at
// build, get the best one). Below this size compression saves less than it costs.
const BROTLI_QUALITY = 5;
const MIN_BYTES = 1024;

/**
 * Sends a rendered page (or another text answer built per request) compressed the way the browser
 * takes it: brotli, else gzip, else as it is. Done here rather than by a compression plugin on every
 * answer: the plugin's hook cost a fifth of /login's throughput even where nothing was compressed
 * (docs/decisions.md, "Compression").
 */
export async function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: string) {
  reply.header('vary', appendVary(reply.getHeader('vary'), 'Accept-Encoding'));
  const accepted = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length < MIN_BYTES) return reply.send(bytes);
  if (/\bbr\b/.test(accepted)) {
    const compressed = await brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    return reply.header('content-encoding', 'br').send(compressed);
  }
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(await gzipAsync(bytes));
  return reply.send(bytes);
}

/**
 * A kept page with this answer's values: gzip where the browser takes it, also beside brotli — made of
 * the page's pieces compressed once (gzip-template.ts), where brotli would compress the whole page
 * anew — else as sendCompressed sends it.
 */
export async function sendFilledIn(
  request: FastifyRequest,
  reply: FastifyReply,
  page: GzipTemplate,
  values: ReadonlyMap<string, string>,
) {
  const accepted = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  if (!/\bgzip\b/.test(accepted)) return sendCompressed(request, reply, page.text(values));
  reply.header('vary', appendVary(reply.getHeader('vary'), 'Accept-Encoding'));
  return reply.header('content-encoding', 'gzip').send(page.gzip(values));
}

function appendVary(current: unknown, name: string): string {
  const values = typeof current === 'string' && current !== '' ? current.split(/\s*,\s*/) : [];
  return values.includes(name) ? values.join(', ') : [...values, name].join(', ');
}
