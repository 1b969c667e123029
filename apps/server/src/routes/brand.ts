import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { failure } from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TenantEntry } from '../tenants/registry-file';
import type { TenantRegistry } from '../tenants/tenant-registry';

const CONTENT_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.css': 'text/css; charset=utf-8',
};

interface BrandOptions {
  registry: TenantRegistry;
  fallbackEnvironment: 'dev' | 'test' | 'prod';
}

/**
 * spec §7: the brand design and the brand assets. The assets answer for the tenant of the
 * `subdomain` parameter, else of the host, else the environment's default — always a registry entry.
 */
export async function brandRoutes(app: FastifyInstance, { registry, fallbackEnvironment }: BrandOptions) {
  function tenantOf(request: FastifyRequest<{ Querystring: { subdomain?: unknown } }>): TenantEntry {
    const tenant = registry.resolve({
      subdomain: request.query.subdomain,
      host: request.hostname,
      fallbackEnvironment,
    });
    return registry.bySubdomain(tenant.subdomain)!;
  }

  app.get<{ Params: { subdomain: string } }>('/api/designs/:subdomain', async (request, reply) => {
    const entry = registry.bySubdomain(request.params.subdomain);
    if (!entry)
      return reply.status(404).send(failure(404, 'unknown_subdomain', 'No tenant with this subdomain'));
    return reply.header('cache-control', 'public, max-age=300').send(registry.design(entry));
  });

  app.get<{ Querystring: { subdomain?: unknown } }>('/logo/brand.jpg', (request, reply) =>
    sendAsset(request, reply, registry.logoFile(tenantOf(request))),
  );

  app.get<{ Querystring: { subdomain?: unknown } }>('/css/brand.css', (request, reply) => {
    const file = registry.stylesheetFile(tenantOf(request));
    // A tenant without a stylesheet gets an empty one: the page links it only when there is one.
    if (!file)
      return reply.type(CONTENT_TYPES['.css']!).header('cache-control', 'public, max-age=300').send('');
    return sendAsset(request, reply, file);
  });
}

async function sendAsset(request: FastifyRequest, reply: FastifyReply, file: string) {
  const stats = await stat(file);
  const etag = `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  reply
    .header('cache-control', 'public, max-age=3600')
    .header('etag', etag)
    // Logos appear in e-mails, read on other sites.
    .header('cross-origin-resource-policy', 'cross-origin')
    // An SVG opened on its own must not run script or load anything.
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .type(CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.send(createReadStream(file));
}
