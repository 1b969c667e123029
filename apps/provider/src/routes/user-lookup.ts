import { EMAIL_MAX_LENGTH, normaliseEmail, ok } from '@concierge/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { findUserBySub, identityIdOf, type User } from '../users/users';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';

const subParamsSchema = z.object({ sub: z.string().min(1).max(200) });

/** cidaas documents at most 1,000 results per search. */
const MAX_SEARCH_SIZE = 1000;
const searchedEmailSchema = z.string().trim().min(1).max(EMAIL_MAX_LENGTH);

/**
 * The graph search's body, as far as the embedded provider understands it: filters on `email` only,
 * each value a string or a list of strings. `fields` (the projection) and `excludeUserCount` are
 * accepted and have no effect; other members are ignored.
 */
const graphSearchBodySchema = z.object({
  fieldsFilter: z
    .array(
      z.object({
        field: z.literal('email'),
        value: z.union([searchedEmailSchema, z.array(searchedEmailSchema).min(1).max(100)]),
      }),
    )
    .min(1)
    .max(20),
  fields: z.string().max(2000).optional(),
  from: z.number().int().min(0).max(100_000).optional(),
  size: z.number().int().min(1).max(MAX_SEARCH_SIZE).optional(),
  excludeUserCount: z.boolean().optional(),
});
type GraphSearchBody = z.infer<typeof graphSearchBodySchema>;

/** The e-mails every filter allows (filters AND, a filter's values OR), normalised. */
function searchedEmails(body: GraphSearchBody): string[] {
  const [first, ...rest] = body.fieldsFilter.map(
    (filter) => new Set((Array.isArray(filter.value) ? filter.value : [filter.value]).map(normaliseEmail)),
  );
  return [...(first ?? [])].filter((email) => rest.every((allowed) => allowed.has(email)));
}

/** A user as the graph search's index shows it (the fields the server asks for). */
function indexEntryOf(user: User) {
  return {
    sub: user.sub,
    userStatus: user.status,
    system: { email: user.email, email_verified: user.email_verified },
  };
}

/**
 * cidaas's internal profile answer, nested as cidaas documents it (Android SDK
 * service/entity/userprofile UseprofileResponseDataEntity, UserAccountEntity, IdentityEntity; no
 * captured body exists). The embedded provider keeps one identity per user, provider "self"; names
 * it does not know are left out rather than sent as null.
 */
function profileOf(user: User) {
  return {
    userAccount: {
      _id: user.sub,
      sub: user.sub,
      userStatus: user.status,
      className: 'cidaas.user',
      createdTime: new Date(user.created_at).toISOString(),
      updatedTime: new Date(user.updated_at).toISOString(),
    },
    identity: {
      _id: identityIdOf(user.sub),
      sub: user.sub,
      email: user.email,
      email_verified: user.email_verified,
      ...(user.given_name === null ? {} : { given_name: user.given_name }),
      ...(user.family_name === null ? {} : { family_name: user.family_name }),
      ...(user.locale === null ? {} : { locale: user.locale }),
      ...(user.mobile_number === null ? {} : { mobile_number: user.mobile_number }),
      provider: 'self',
    },
    customFields: {},
    roles: user.roles,
    groups: user.groups,
  };
}

/** The server's look-ups of users (cidaas-facts.md, "Users": user by sub, searching users). */
export const userLookupRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, db, provider }) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  // cidaas's documented search (docs.cidaas.com openapi/4.0.6/user/graph-find-users-by-filter); the
  // server asks it when the existence check brings no sub. Where cidaas puts the list in its answer
  // is not documented ("an array of users"): the embedded provider answers it as `data` itself. No
  // match is the documented 204, without a body.
  app.post('/user-srv/graph/users', async (request, reply) => {
    const body = graphSearchBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const emails = searchedEmails(body.data);
    const users =
      emails.length === 0
        ? []
        : await db
            .selectFrom('users')
            .selectAll()
            .where('email', 'in', emails)
            .orderBy('created_at')
            .orderBy('sub')
            .offset(body.data.from ?? 0)
            .limit(body.data.size ?? MAX_SEARCH_SIZE)
            .execute();
    if (users.length === 0) return reply.code(204).send();
    return ok(users.map(indexEntryOf));
  });

  // cidaas's user by sub (Android SDK URLHelper, inheaden/cidaasutils user.go): the server resolves
  // a webhook event's sub and reads a user's status and e-mail verification through it.
  app.get('/users-srv/internal/userinfo/profile/:sub', async (request, reply) => {
    const params = subParamsSchema.safeParse(request.params);
    const user = params.success ? await findUserBySub(db, params.data.sub) : undefined;
    if (!user) return refuse(reply, 417, CIDAAS_CODES.USER_NOT_FOUND, 'user not found', 'UsersException');
    return ok(profileOf(user));
  });
};
