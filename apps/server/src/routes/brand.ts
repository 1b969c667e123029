import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { failure } from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BrandPreview, BrandPreviews } from '../tenants/brand-preview';
import type { TenantEntry } from '../tenants/registry-file';
import type { LogoSource, StylesheetSource, TenantRegistry } from '../tenants/tenant-registry';

const CONTENT_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.css': 'text/css; charset=utf-8',
};
const CSS = CONTENT_TYPES['.css']!;
const CACHED = 'public, max-age=3600';

interface BrandOptions {
  registry: TenantRegistry;
  fallbackEnvironment: 'dev' | 'test' | 'prod';
  /** A console session's `brandPreview` of a tenant's draft (tenants/brand-preview.ts). */
  previews: BrandPreviews;
}

type BrandRequest = FastifyRequest<{ Querystring: { subdomain?: unknown; v?: unknown } }>;

/**
 * spec §7: the brand design and the brand assets. The assets answer for the tenant of the
 * `subdomain` parameter, else of the host, else the environment's default — always a registry entry.
 * A published brand's logo and stylesheet come from the database (held by the registry), the others
 * from the registry's folder; with a console session's `brandPreview`, the previewed revision's.
 */
export async function brandRoutes(
  app: FastifyInstance,
  { registry, fallbackEnvironment, previews }: BrandOptions,
) {
  function tenantOf(request: BrandRequest): TenantEntry {
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

  app.get('/logo/brand.jpg', async (request: BrandRequest, reply) => {
    const preview = await previews.previewFor(request, registry);
    if (preview?.brand) return sendAsset(request, reply, previewLogo(preview, registry), 'no-store');
    return sendAsset(request, reply, registry.logoOf(tenantOf(request)), preview ? 'no-store' : CACHED);
  });

  app.get('/css/brand.css', async (request: BrandRequest, reply) => {
    const preview = await previews.previewFor(request, registry);
    const source = preview?.brand ? previewStylesheet(preview) : registry.stylesheetOf(tenantOf(request));
    const cacheControl = preview ? 'no-store' : CACHED;
    // A tenant without a stylesheet gets an empty one: the page links it only when there is one.
    if (!source)
      return reply
        .type(CSS)
        .header('cache-control', preview ? 'no-store' : 'public, max-age=300')
        .send('');
    return sendAsset(request, reply, source, cacheControl);
  });
}

function previewLogo(preview: BrandPreview, registry: TenantRegistry): LogoSource {
  const brand = preview.brand!;
  return brand.flags.useSpecialLogo ? { file: registry.specialLogoFile() } : { logo: brand.logo };
}

function previewStylesheet(preview: BrandPreview): StylesheetSource | undefined {
  const { stylesheet } = preview.brand!;
  return stylesheet ? { stylesheet } : undefined;
}

async function sendAsset(
  request: BrandRequest,
  reply: FastifyReply,
  source: LogoSource | StylesheetSource,
  cacheControl: string,
) {
  let etag: string;
  let type: string;
  let body: () => Buffer | string | NodeJS.ReadableStream;
  if ('file' in source) {
    const stats = await stat(source.file);
    etag = `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    type = CONTENT_TYPES[extname(source.file)] ?? 'application/octet-stream';
    body = () => createReadStream(source.file);
  } else {
    const asset = 'logo' in source ? source.logo : source.stylesheet;
    etag = `"${asset.version}"`;
    type = 'logo' in source ? source.logo.mediaType : CSS;
    body = () => ('logo' in source ? source.logo.bytes : source.stylesheet.text);
    // A page of a brand this instance has not taken yet asks for the new version: what is here is
    // the old one, which no cache may keep under the new URL.
    const { v } = request.query;
    if (typeof v === 'string' && v !== asset.version) cacheControl = 'no-cache';
  }
  reply
    .header('cache-control', cacheControl)
    .header('etag', etag)
    // Logos appear in e-mails, read on other sites.
    .header('cross-origin-resource-policy', 'cross-origin')
    // An SVG opened on its own must not run script or load anything.
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .type(type);
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.send(body());
}
