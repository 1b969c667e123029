import type { FastifyInstance } from 'fastify';
import { CHECK_SESSION_PATH } from '../oidc/session-management';

/** Powerful features a sign-in page never needs; nothing the provider serves may ask for them. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/**
 * The same framing and security headers on every answer, oidc-provider's own pages (sign-out, its
 * errors and 404s) included. They go onto the raw response in onRequest because the OIDC routes
 * hijack the reply and Koa writes it: no onSend hook runs for those. Headers an answer sets itself
 * replace these (Node merges setHeader with writeHead, and Koa's ctx.set is setHeader): the
 * oidc-provider pages bring their full CSP, the session check page its own frame-ancestors.
 */
export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const response = reply.raw;
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    // The relying parties frame the session check page (Session Management 1.0); nothing else.
    if (request.url.split('?', 1)[0] === CHECK_SESSION_PATH) return;
    response.setHeader('X-Frame-Options', 'DENY');
    response.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  });
}
