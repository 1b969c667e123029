// What the server alone asks the provider while it renders /login in the bench: the client info of
// the page's request id and the tenant info, answered in the shape cidaas's are recorded in
// (../shared/design/cidaas-facts.md, "Public info"), from memory. The bench measures the server's
// own work per page; the provider's time is another's (the page's read of a request id is kept for
// 2 s, ssr/page-sign-in-request.ts). Every other path is a 404, so a page that would need more (a
// fresh request id) shows in the figures as a failure, never as a quiet success.
import { createServer } from 'node:http';

export const BENCH_REQUEST_ID = 'c3c2bd4e-6c1b-4f0e-9d7e-6a3c0b1e2f40';

const ANSWERS = new Map([
  [
    `/public-srv/public/${BENCH_REQUEST_ID}`,
    {
      client_name: 'Demo Immobilien AG',
      logo_uri: '',
      login_providers: [],
      policy_uri: '',
      tos_uri: '',
      passwordless_enabled: false,
      captcha_site_key: '',
    },
  ],
  [
    '/public-srv/tenantinfo/basic',
    { tenant_name: 'Concierge', tenant_key: 'concierge', allowLoginWith: ['EMAIL'] },
  ],
]);

/** @returns {Promise<{ url: string, close: () => Promise<void> }>} */
export async function startProviderStandIn() {
  const server = createServer((request, response) => {
    const data = ANSWERS.get(request.url ?? '');
    const status = data ? 200 : 404;
    const body = data ? { success: true, status, data } : { success: false, status, error: { code: 404 } };
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
