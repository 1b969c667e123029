import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { answer, CODES, describeIssues, malformed, refuse } from './envelope';
import type { DoubleClient, DoubleContext } from './types';

// Unknown fields are ignored: cidaas's generate and authz take more (ui_locales, prompt, …).
const authRequestSchema = z.object({
  client_id: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  response_type: z.string().max(100).optional(),
  scope: z.string().max(1000).optional(),
  nonce: z.string().max(500).optional(),
  state: z.string().max(500).optional(),
});
const requestIdParams = z.object({ requestId: z.string().min(1).max(200) });

/** The recorded parameters cidaas puts on every hosted-page URL. */
export const PAGE_PARAMS: Array<[string, string]> = [
  ['groupname', 'default'],
  ['lang', ''],
  ['view_type', 'login'],
];

/** The URL with parameters appended; its own query (e.g. the operator's `subdomain`) is kept. */
export function withParams(url: string, params: Array<[string, string]>): string {
  const target = new URL(url);
  for (const [name, value] of params) target.searchParams.append(name, value);
  return target.toString();
}

export function findClient(ctx: DoubleContext, clientId: string): DoubleClient | undefined {
  return ctx.options.clients.find((client) => client.clientId === clientId);
}

/** Hosted-page sign-in calls other than the login form (provider-protocol.md). */
export function hostedRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  /** Validates an authorization request and issues its request id; undefined after a refusal. */
  function issue(
    input: unknown,
    reply: FastifyReply,
  ): { requestId: string; client: DoubleClient } | undefined {
    const parsed = authRequestSchema.safeParse(input);
    if (!parsed.success) {
      malformed(reply, describeIssues(parsed.error));
      return undefined;
    }
    const { client_id: clientId, redirect_uri: redirectUri, state } = parsed.data;
    const client = findClient(ctx, clientId);
    if (!client?.redirectUris.includes(redirectUri)) {
      // No recorded answer for this refusal: the double's validation code with a 400 (ours).
      refuse(reply, 400, CODES.malformed, 'invalid client_id or redirect_uri', 'AuthzException');
      return undefined;
    }
    return { requestId: ctx.requestIds.issue(clientId, redirectUri, state), client };
  }

  // A fresh request id without a browser round trip, `{groupname, lang, view_type, requestId}`; no
  // cookie is set or needed (recorded).
  app.post('/authz-srv/authrequest/authz/generate', async (request, reply) => {
    const issued = issue(request.body, reply);
    if (!issued) return reply;
    return answer(reply, { groupname: 'default', lang: '', view_type: 'login', requestId: issued.requestId });
  });

  // Without a session cidaas sends the browser to the client's hosted page (recorded).
  app.get('/authz-srv/authz', async (request, reply) => {
    const issued = issue(request.query, reply);
    if (!issued) return reply;
    const location = withParams(issued.client.hostedPageUrl, [
      ...PAGE_PARAMS,
      ['requestId', issued.requestId],
    ]);
    return reply.redirect(location, 302);
  });

  // Recorded shape: no registration_enabled, invite_enabled or client_id (the values are ours). An
  // unknown or expired request id: 400 + 10001 (recorded).
  app.get('/public-srv/public/:requestId', async (request, reply) => {
    const params = requestIdParams.safeParse(request.params);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    const authRequest = ctx.requestIds.live(params.data.requestId);
    if (!authRequest)
      return refuse(reply, 400, CODES.invalidRequestId, 'Invalid request id', 'PublicException');
    return answer(reply, {
      client_name: authRequest.clientId,
      logo_uri: '',
      login_providers: [],
      policy_uri: '',
      tos_uri: '',
      passwordless_enabled: false,
      captcha_site_key: '',
    });
  });

  // Recorded shape `{tenant_name, tenant_key, allowLoginWith}` (versionInfo left out).
  app.get('/public-srv/tenantinfo/basic', async (_request, reply) =>
    answer(reply, { tenant_name: ctx.tenant.name, tenant_key: ctx.tenant.key, allowLoginWith: ['EMAIL'] }),
  );
}
