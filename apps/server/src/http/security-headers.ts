import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { ServerConfig } from '../config';

/** Powerful features a sign-in page never needs; helmet has no setting for this header. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** Where the build's hashed files are served (app.ts): scripts and stylesheets, never a document. */
export const ASSETS_PREFIX = '/assets/';

/**
 * What a script or a stylesheet keeps of the headers: the ones a browser applies to such a file —
 * no sniffing it as something else, no loading it from another site's page, no Referer for what a
 * stylesheet fetches, HTTPS only. The policy, framing, DNS-prefetch, permission and download headers
 * apply to documents alone: on each of a page's ten script files they were 0.6 KiB of nothing, about
 * 6 KiB of what /login transfers over HTTP/1.1 (docs/decisions.md, "/login on a tenant's phone").
 */
const ASSET_HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  frameguard: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} satisfies HelmetOptions;

/** Header names and values, set on an answer one by one. */
type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/** Each server's current header set of a document, for the answers no hook sees (framework-errors.ts). */
const headerSets = new WeakMap<FastifyInstance, () => HeaderList>();

/**
 * ARCHITECTURE §6: a CSP whose only inline script is the page's start script, allowed by its hash
 * (ssr/portal-bundle.ts), whose form-action names the provider (the login form posts there) and the
 * customer portals its redirect lands on — browsers apply form-action to the redirects after a form
 * POST too; no framing; no Referer ever. Styles allow 'unsafe-inline' because Mantine sets style
 * attributes and its CSS variables inline.
 *
 * Helmet decides the headers; they are worked out once per registry of customer portals, not per
 * answer: no setting depends on the request, and @fastify/helmet built helmet's middleware anew for
 * every request (4.6 % of a fresh /login's CPU, 6.5 % of the failed-login counter's;
 * docs/decisions.md).
 */
export function securityHeaders(
  app: FastifyInstance,
  config: ServerConfig,
  /** Asked per answer: a tenant added to the registry file counts at once (tenants/watch-registry.ts). */
  customerPortalOrigins: () => readonly string[],
  /** The inline scripts' hashes, as the CSP names them (`'sha256-…'`). */
  inlineScriptHashes: readonly string[],
): void {
  const { providerUrl, runtime } = config;
  const isHttps = config.portalUrl.startsWith('https:');
  const optionsFor = (origins: readonly string[]) =>
    ({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...inlineScriptHashes],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'", providerUrl, runtime.restApiBaseUrl],
          formAction: ["'self'", providerUrl, ...origins],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
          objectSrc: ["'none'"],
          ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      referrerPolicy: { policy: 'no-referrer' },
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
      // Relying parties may open the sign-in in a pop-up (spec §1, §9): a cross-origin opener policy
      // would cut the pop-up from its opener and the sign-in could never report back.
      crossOriginOpenerPolicy: false,
      hsts: isHttps ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    }) satisfies HelmetOptions;

  const assetHeaders = headersOf({ ...optionsFor([]), ...ASSET_HELMET_OPTIONS });
  let documents: { origins: readonly string[]; headers: HeaderList } | undefined;
  const documentHeaders = (): HeaderList => {
    const origins = customerPortalOrigins();
    if (documents?.origins !== origins) {
      documents = {
        origins,
        headers: [...headersOf(optionsFor(origins)), ['permissions-policy', PERMISSIONS_POLICY]],
      };
    }
    return documents.headers;
  };
  // On the raw response, as helmet does: every answer gets them, whatever its route does with the reply.
  app.addHook('onRequest', (request, reply, done) => {
    const headers = isAsset(request.routeOptions.url) ? assetHeaders : documentHeaders();
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  headerSets.set(app, documentHeaders);
}

/**
 * An answer the console frames on its own page (a brand preview: tenants/brand-preview.ts): this
 * origin may frame it, no other. Every other answer keeps `frame-ancestors 'none'` and DENY.
 */
export function allowFramingBySameOrigin(reply: FastifyReply): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string') {
    reply.header(
      'content-security-policy',
      policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
    );
  }
  reply.header('x-frame-options', 'SAMEORIGIN');
}

function isAsset(routeUrl: string | undefined): boolean {
  return routeUrl?.startsWith(ASSETS_PREFIX) === true;
}

/**
 * The headers every answer carries, for those no hook sees: the router's refusals (frameworkErrors)
 * and Node's (clientErrorHandler). The same helmet settings, so the same values.
 */
export function securityHeadersOf(app: FastifyInstance): Record<string, string> {
  return Object.fromEntries(headerSets.get(app)?.() ?? []);
}

/** Puts them onto a response no hook ran for (see securityHeadersOf). */
export function setSecurityHeaders(app: FastifyInstance, response: ServerResponse) {
  for (const [name, value] of headerSets.get(app)?.() ?? []) response.setHeader(name, value);
}

/** What helmet sets with these options: no option depends on the request. */
function headersOf(options: HelmetOptions): HeaderList {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, () => {});
  return response.getHeaderNames().map((name) => [name, String(response.getHeader(name))] as const);
}
