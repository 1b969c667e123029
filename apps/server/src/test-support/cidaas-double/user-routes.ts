import { normaliseEmail } from '@concierge/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireBearer } from './admin-auth';
import { answer, describeIssues, malformed, userNotFound } from './envelope';
import type { DoubleContext } from './types';
import { indexDocumentOf, profileOf, project } from './users';

const emailBody = z.object({ email: z.string().trim().min(1).max(320) });
const subParams = z.object({ sub: z.string().min(1).max(200) });

// The graph search's body as documented (openapi/4.0.6/user/graph-find-users-by-filter): the legacy
// `fieldsFilter` ("still accepted, auto-normalized"), `fields`, `from`, `size` (max 1000),
// `excludeUserCount`. Other documented parts (filters, groupsFilter, terms, sortfield) pass unread.
const searchBody = z
  .object({
    fieldsFilter: z
      .array(z.object({ field: z.string(), value: z.union([z.string(), z.array(z.string())]) }).loose())
      .optional(),
    fields: z.string().max(2000).optional(),
    from: z.number().int().min(0).optional(),
    size: z.number().int().min(0).max(1000).optional(),
    excludeUserCount: z.boolean().optional(),
  })
  .loose();

/** The e-mails asked for by an e-mail filter; undefined without one. */
function emailsFilteredBy(filters: z.infer<typeof searchBody>['fieldsFilter']): string[] | undefined {
  // Which field name the legacy filter takes for the e-mail is unknown: the index path or its leaf.
  const filter = filters?.find((entry) => entry.field === 'email' || entry.field === 'system.email');
  if (!filter) return undefined;
  return (Array.isArray(filter.value) ? filter.value : [filter.value]).map(normaliseEmail);
}

/** User existence (both), the graph search, user by sub. */
export function userRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  const admin = { onRequest: requireBearer(ctx) };

  // The hosted page's check (public; the JS SDK's userCheckExists). Answers `{exist:true}` and
  // nothing else for a known user (recorded shape), "not found" per variant. The request id is not
  // checked: nothing shows that cidaas does.
  app.post('/useractions-srv/userexistence/:requestId', async (request, reply) => {
    const body = emailBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.byEmail(body.data.email);
    return user ? answer(reply, { exist: true }) : userNotFound(reply, ctx.variants().userNotFound);
  });

  // Admin existence (documented: openapi/4.0.6/user/post-useractions-srv-userexistence-authenticated).
  // A known user: `{exist:true}`; whether `sub` (and userStatus) come with it is unknown (variant
  // existenceCarriesSub). Unknown user: variant userNotFound (documented 204 + 10301).
  app.post('/useractions-srv/userexistence', admin, async (request, reply) => {
    const body = emailBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.byEmail(body.data.email);
    const variants = ctx.variants();
    if (!user) return userNotFound(reply, variants.userNotFound);
    const identity = variants.existenceCarriesSub ? { sub: user.sub, userStatus: user.userStatus } : {};
    return answer(reply, { exist: true, ...identity });
  });

  // The documented user search `POST /user-srv/graph/users` (scope cidaas:users_search or
  // cidaas:users_read; not checked here). Documented answers: 200 "an array of users", 204 No
  // Content for no match, 401, 417. Where the array sits: variant searchAnswer. The double
  // understands only an e-mail filter; any other search is refused (ours: 400 + 10000).
  app.post('/user-srv/graph/users', admin, async (request, reply) => {
    const body = searchBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const emails = emailsFilteredBy(body.data.fieldsFilter);
    if (!emails) return malformed(reply, 'the cidaas double searches by an e-mail fieldsFilter only');
    const matches = ctx.users.all().filter((user) => emails.includes(user.email));
    const { from = 0, size = 10, fields } = body.data;
    const page = matches.slice(from, from + size).map((user) => project(indexDocumentOf(user), fields));
    if (page.length === 0) return reply.code(204).send();
    const placement = ctx.variants().searchAnswer;
    if (placement === 'data') return answer(reply, page);
    // The total's name and place are unknown too; it comes only beside a list in an object.
    const total = body.data.excludeUserCount ? {} : { total: matches.length };
    return answer(reply, placement === 'data.users' ? { users: page, ...total } : { data: page, ...total });
  });

  // User by sub (documented path: Android SDK URLHelper internaluserProfileURL, inheaden/cidaasutils
  // userinfoInternalEndpoint); its shape: variant profileShape (documented nested). Unknown sub:
  // variant userNotFound (what cidaas answers here is unknown).
  app.get('/users-srv/internal/userinfo/profile/:sub', admin, async (request, reply) => {
    const params = subParams.safeParse(request.params);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    const user = ctx.users.bySub(params.data.sub);
    const variants = ctx.variants();
    return user
      ? answer(reply, profileOf(user, variants.profileShape))
      : userNotFound(reply, variants.userNotFound);
  });
}
