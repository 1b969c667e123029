import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { CHECK_SESSION_PATH } from '../oidc/session-management';

/** Powerful features a sign-in page never needs; nothing the provider serves may ask for them. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** Every answer's headers, the session check page's included. */
const ALWAYS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': PERMISSIONS_POLICY,
} as const;

/** Every answer's but the session check page's, which the relying parties frame (Session Management 1.0). */
const NO_FRAMING = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
} as const;

/** The headers of an answer that is not the session check page: Node's own refusals (app.ts, clientErrorHandler). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { ...ALWAYS, ...NO_FRAMING };

/**
 * Puts the headers onto a response. Headers an answer sets itself replace these (Node merges setHeader
 * with writeHead, and Koa's ctx.set is setHeader): the oidc-provider pages bring their full CSP, the
 * session check page its own frame-ancestors.
 */
export function setSecurityHeaders(response: ServerResponse, url: string) {
  for (const [name, value] of Object.entries(ALWAYS)) response.setHeader(name, value);
  if (url.split('?', 1)[0] === CHECK_SESSION_PATH) return;
  for (const [name, value] of Object.entries(NO_FRAMING)) response.setHeader(name, value);
}

/**
 * The same framing and security headers on every answer, oidc-provider's own pages (sign-out, its
 * errors and 404s) included. They go onto the raw response in onRequest because the OIDC routes
 * hijack the reply and Koa writes it: no onSend hook runs for those. What Fastify refuses before any
 * hook runs gets them from answerFrameworkError and the clientErrorHandler of app.ts.
 */
export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(reply.raw, request.url);
  });
}
