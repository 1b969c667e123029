// After `vite build`: every text asset of the browser bundle also as .br and .gz, compressed once
// and as hard as the formats go, so that the server sends them as they are (@fastify/static
// preCompressed) instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ASSETS = new URL('../dist/client/assets/', import.meta.url);
const TEXT = /\.(js|mjs|css|svg|json|html|txt|map)$/;
// Below this a compressed copy saves less than its own headers cost.
const MIN_BYTES = 1024;

let written = 0;
for (const name of readdirSync(ASSETS)) {
  const path = join(ASSETS.pathname, name);
  if (!TEXT.test(name) || statSync(path).size < MIN_BYTES) continue;
  const content = readFileSync(path);
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  );
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  written += 1;
}
console.log(`precompressed ${written} assets (.br, .gz)`);
