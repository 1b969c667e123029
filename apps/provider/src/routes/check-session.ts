import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { clientOrigins } from '../oidc/clients';
import { BROWSER_STATE_COOKIE, CHECK_SESSION_PATH } from '../oidc/session-management';
import type { RouteDeps } from './deps';

/**
 * The OP iframe of Session Management 1.0: a relying party posts "client_id session_state" and gets
 * "unchanged", "changed" or "error". It recomputes session_state from the browser-state cookie with
 * the algorithm of oidc/session-management.ts (computeSessionState). crypto.subtle needs a secure
 * context (https, or http on localhost); without it the answer is "error", which makes oidc-client-ts
 * stop monitoring rather than report a sign-out every two seconds.
 */
export const CHECK_SESSION_SCRIPT = `(function () {
  var NAME = ${JSON.stringify(BROWSER_STATE_COOKIE)};
  function browserState() {
    var cookies = document.cookie ? document.cookie.split('; ') : [];
    for (var i = 0; i < cookies.length; i++) {
      if (cookies[i].indexOf(NAME + '=') === 0) return cookies[i].slice(NAME.length + 1);
    }
    return '';
  }
  function base64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  window.addEventListener('message', function (event) {
    var source = event.source;
    if (!source || typeof event.data !== 'string') return;
    function reply(status) { source.postMessage(status, event.origin); }
    var parts = event.data.split(' ');
    var sessionState = parts[1] || '';
    var dot = sessionState.lastIndexOf('.');
    if (parts.length !== 2 || !parts[0] || dot < 1 || !(window.crypto && window.crypto.subtle)) {
      reply('error');
      return;
    }
    var salt = sessionState.slice(dot + 1);
    var data = new TextEncoder().encode(parts[0] + ' ' + event.origin + ' ' + browserState() + ' ' + salt);
    window.crypto.subtle.digest('SHA-256', data).then(function (digest) {
      reply(base64url(digest) + '.' + salt === sessionState ? 'unchanged' : 'changed');
    }, function () { reply('error'); });
  });
})();`;

const SCRIPT_HASH = `'sha256-${createHash('sha256').update(CHECK_SESSION_SCRIPT).digest('base64')}'`;

const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Session check</title></head>
<body><script>${CHECK_SESSION_SCRIPT}</script></body></html>`;

export const checkSessionRoutes: FastifyPluginAsync<RouteDeps> = async (app, { clients }) => {
  // Only the registered relying parties may frame the page; its one script is allowed by its hash.
  const origins = new Set([...clients.values()].flatMap((client) => [...clientOrigins(client)]));
  const frameAncestors = origins.size > 0 ? [...origins].join(' ') : "'none'";
  const csp = `default-src 'none'; script-src ${SCRIPT_HASH}; frame-ancestors ${frameAncestors}`;

  app.get(CHECK_SESSION_PATH, async (_request, reply) =>
    reply
      .header('Content-Security-Policy', csp)
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(PAGE),
  );
};
