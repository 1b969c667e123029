// The identity provider as the bench's server meets it: the calls a page makes to get its sign-in
// request (apps/server/src/ssr/page-sign-in-request.ts), answered from memory in the shapes real
// cidaas answers them (../shared/design/cidaas-facts.md, "Hosted-page login" and "Public info";
// the envelope from its "Error envelope"). Each answer below names its source. The bench measures
// the server's own work per page; the provider's time is another's, and this process is the bench's.
//
// Request ids are made here, as cidaas makes them: by `authz/generate` (the server, for a page that
// came without one), or by the customer portal's redirect through the provider (`authorize` below:
// the address cidaas sends a tenant to, without the browser's round trip). Only an id made here has
// client info; any other is refused as cidaas refuses an unknown one. Every other path is a 404, so a
// page that would need more shows in the figures as a failure, never as a quiet success.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/** Issued at start for the demo tenant's client: the one request id the kept-page loads reuse. */
export const BENCH_REQUEST_ID = 'c3c2bd4e-6c1b-4f0e-9d7e-6a3c0b1e2f40';

/**
 * The clients as an operator would have set them up at cidaas for the bench's tenant
 * (tenants/tenants.json, `demo`): the name cidaas shows in client info is the one the operator gave
 * the client; the hosted login page is the URL the operator wrote for it, with the tenant's
 * `subdomain` (cidaas-facts.md: cidaas passes on only what the operator writes there).
 */
const CLIENTS = new Map([
  ['property-portal-demo', { name: 'Demo Immobilien AG', hostedLoginPage: '/login?subdomain=demo' }],
]);
const DEMO_CLIENT = 'property-portal-demo';

/**
 * cidaas-facts.md, "Hosted-page login" (recorded): the parameters cidaas appends when it sends a
 * browser without a session to the client's login page.
 */
const HOSTED_PAGE_PARAMS = [
  ['groupname', 'default'],
  ['lang', ''],
  ['view_type', 'login'],
];

/** cidaas-facts.md, "Error envelope" (recorded): integer code, exception-name type, status repeated. */
function refusal(status, code, message, type) {
  const referenceNumber = `${Date.now()}-${randomUUID().slice(0, 12)}`;
  return {
    success: false,
    status,
    error: { code, moreInfo: '', type, status, referenceNumber, error: message },
  };
}

/**
 * @returns {Promise<{
 *   url: string,
 *   authorize(clientId?: string): string,
 *   close: () => Promise<void>,
 * }>}
 */
export async function startProviderStandIn() {
  /** request id → the client it was made for. cidaas lets them expire (when: unknown); a run is short. */
  const requests = new Map([[BENCH_REQUEST_ID, DEMO_CLIENT]]);
  const issue = (/** @type {string} */ clientId) => {
    const requestId = randomUUID();
    requests.set(requestId, clientId);
    return requestId;
  };

  /** @returns {Promise<{ status: number, body: unknown }>} */
  async function answer(/** @type {import('node:http').IncomingMessage} */ request) {
    const path = (request.url ?? '').split('?', 1)[0];
    if (request.method === 'POST' && path === '/authz-srv/authrequest/authz/generate') {
      let input;
      try {
        input = JSON.parse(await textOf(request));
      } catch {
        input = undefined;
      }
      const clientId = input?.client_id;
      if (typeof clientId !== 'string' || !CLIENTS.has(clientId) || typeof input.redirect_uri !== 'string') {
        // Not recorded: what cidaas answers an unknown client or a missing redirect_uri (a 400 in
        // the recorded envelope; code 10000 and the type are ours, as the cidaas double's).
        return {
          status: 400,
          body: refusal(400, 10000, 'invalid client_id or redirect_uri', 'AuthzException'),
        };
      }
      // cidaas-facts.md, "Hosted-page login" (recorded): `data: { groupname, lang, view_type,
      // requestId }`, a new request id bound to the client. (cidaas also checks redirect_uri against
      // the client's; the stand-in takes any, as it has no list of them.)
      return {
        status: 200,
        body: {
          success: true,
          status: 200,
          data: { groupname: 'default', lang: '', view_type: 'login', requestId: issue(clientId) },
        },
      };
    }
    if (request.method === 'GET' && path.startsWith('/public-srv/public/')) {
      const clientId = requests.get(decodeURIComponent(path.slice('/public-srv/public/'.length)));
      const client = clientId === undefined ? undefined : CLIENTS.get(clientId);
      if (!client) {
        // cidaas-facts.md, "Codes seen" (recorded): 10001, an invalid or expired request id, with 400;
        // the exception type of public-srv is not recorded (the cidaas double's).
        return { status: 400, body: refusal(400, 10001, 'Invalid request id', 'PublicException') };
      }
      // cidaas-facts.md, "Public info" (recorded shape: no registration_enabled, invite_enabled or
      // client_id); the name is the client's as set up above, the rest empty as the client has none.
      return {
        status: 200,
        body: {
          success: true,
          status: 200,
          data: {
            client_name: client.name,
            logo_uri: '',
            login_providers: [],
            policy_uri: '',
            tos_uri: '',
            passwordless_enabled: false,
            captcha_site_key: '',
          },
        },
      };
    }
    if (request.method === 'GET' && path === '/public-srv/tenantinfo/basic') {
      // cidaas-facts.md, "Public info" (recorded shape `{ tenant_name, tenant_key, allowLoginWith,
      // versionInfo? }`, versionInfo left out); the values are the bench's.
      return {
        status: 200,
        body: {
          success: true,
          status: 200,
          data: { tenant_name: 'Concierge', tenant_key: 'concierge', allowLoginWith: ['EMAIL'] },
        },
      };
    }
    // Ours: any other call is one the bench does not expect the server to make while it renders pages.
    return { status: 404, body: refusal(404, 404, 'no such call in the bench stand-in', 'RouteException') };
  }

  const server = createServer((request, response) => {
    answer(request).then(
      ({ status, body }) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    /**
     * Where cidaas sends a tenant the customer portal sends through it (`GET /authz-srv/authz`
     * without a session → 302 to the client's hosted login page with the recorded parameters and a
     * new request id, cidaas-facts.md "Hosted-page login"): that address's path and query.
     */
    authorize(clientId = DEMO_CLIENT) {
      const client = CLIENTS.get(clientId);
      if (!client) throw new Error(`The stand-in has no client ${clientId}`);
      const url = new URL(client.hostedLoginPage, 'http://portal.invalid');
      for (const [name, value] of HOSTED_PAGE_PARAMS) url.searchParams.append(name, value);
      url.searchParams.append('requestId', issue(clientId));
      return `${url.pathname}${url.search}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/** @param {import('node:http').IncomingMessage} request */
async function textOf(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
