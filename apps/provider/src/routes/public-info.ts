import { failure, ok } from '@concierge/contracts';
import cors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { clientOfInteraction, findInteraction } from '../oidc/interactions';
import type { RouteDeps } from './deps';
import { sendValidationFailure } from './envelope-errors';
import { portalCorsOptions } from './portal-cors';

export const PUBLIC_PREFIX = '/public-srv';

const paramsSchema = z.object({ requestId: z.string().min(1).max(200) });

/** Registered under PUBLIC_PREFIX: what the hosted pages need to know about the request and tenant. */
export const publicInfoRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, provider, clients }) => {
  await app.register(cors, portalCorsOptions(config.portalUrl));

  app.get('/public/:requestId', async (request, reply) => {
    const params = paramsSchema.safeParse(request.params);
    if (!params.success) return sendValidationFailure(reply, params.error);
    const interaction = await findInteraction(provider, params.data.requestId);
    const client = interaction ? clientOfInteraction(interaction, clients) : undefined;
    if (!client) {
      return reply
        .code(400)
        .send(failure(400, 'invalid_request_id', 'unknown or expired requestId', 'RequestIdException'));
    }
    // Unset URIs are left out rather than sent as null: readers treat both as "none".
    return ok({
      client_id: client.client_id,
      client_name: client.client_name ?? client.client_id,
      logo_uri: client.logo_uri,
      policy_uri: client.policy_uri,
      tos_uri: client.tos_uri,
      login_providers: [],
      registration_enabled: client.registration_enabled,
      invite_enabled: client.invite_enabled,
    });
  });

  app.get('/tenantinfo/basic', async () =>
    ok({ tenant_name: config.tenant.name, tenant_key: config.tenant.key, allowLoginWith: ['EMAIL'] }),
  );
};
