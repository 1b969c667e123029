import type { FastifyCorsOptions } from '@fastify/cors';

/**
 * The portal calls these routes cross-origin with cookies, exactly as it calls cidaas; it sends the
 * custom headers requestId and acceptlanguage (provider-protocol.md, "Conventions").
 */
export function portalCorsOptions(portalUrl: string): FastifyCorsOptions {
  return {
    // A list, not a string: the plugin then answers only a matching Origin instead of always naming it.
    origin: [new URL(portalUrl).origin],
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', 'requestId', 'acceptlanguage'],
    maxAge: 600,
  };
}
