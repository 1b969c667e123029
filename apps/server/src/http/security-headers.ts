import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';

/** Powerful features a sign-in page never needs; helmet has no setting for this header. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/**
 * ARCHITECTURE §6: a CSP without inline script whose form-action names the provider (the login form
 * posts there) and the customer portals its redirect lands on — browsers apply form-action to the
 * redirects after a form POST too; no framing; no Referer ever. Styles allow 'unsafe-inline'
 * because Mantine sets style attributes and its CSS variables inline.
 */
export async function securityHeaders(
  app: FastifyInstance,
  config: ServerConfig,
  customerPortalOrigins: string[],
) {
  const { providerUrl, runtime } = config;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", providerUrl, runtime.restApiBaseUrl],
        formAction: ["'self'", providerUrl, ...customerPortalOrigins],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        ...(config.portalUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    // Relying parties may open the sign-in in a pop-up (spec §1, §9): a cross-origin opener policy
    // would cut the pop-up from its opener and the sign-in could never report back.
    crossOriginOpenerPolicy: false,
    hsts: config.portalUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  // On the raw response, as helmet does: every answer gets it, whatever its route does with the reply.
  app.addHook('onRequest', async (_request, reply) => {
    reply.raw.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
  });
}
