import { ok } from '@concierge/contracts';
import cors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { clientOfInteraction, findInteraction } from '../oidc/interactions';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse } from './envelope-errors';
import { portalCorsOptions } from './portal-cors';

export const PUBLIC_PREFIX = '/public-srv';

const paramsSchema = z.object({ requestId: z.string().min(1).max(200) });

/** Registered under PUBLIC_PREFIX: what the hosted pages need to know about the request and tenant. */
export const publicInfoRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, provider, clients }) => {
  await app.register(cors, portalCorsOptions(config.portalUrl));

  // cidaas's recorded answer; no registration flags and no client_id (provider-protocol.md): the
  // portal takes those from the tenant registry.
  app.get('/public/:requestId', async (request, reply) => {
    const params = paramsSchema.safeParse(request.params);
    const interaction = params.success ? await findInteraction(provider, params.data.requestId) : undefined;
    const client = interaction ? clientOfInteraction(interaction, clients) : undefined;
    if (!client) {
      return refuse(
        reply,
        400,
        CIDAAS_CODES.INVALID_REQUEST_ID,
        'unknown or expired requestId',
        'RequestIdException',
      );
    }
    // Unset URIs are left out rather than sent as null: readers treat both as "none".
    return ok({
      client_name: client.client_name ?? client.client_id,
      logo_uri: client.logo_uri,
      login_providers: [],
      policy_uri: client.policy_uri,
      tos_uri: client.tos_uri,
      passwordless_enabled: false,
      captcha_site_key: '',
    });
  });

  app.get('/tenantinfo/basic', async () =>
    ok({ tenant_name: config.tenant.name, tenant_key: config.tenant.key, allowLoginWith: ['EMAIL'] }),
  );
};
