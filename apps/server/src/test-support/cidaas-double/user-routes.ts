import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireBearer } from './admin-auth';
import { answer, CODES, describeIssues, malformed, refuse, userNotFound } from './envelope';
import type { DoubleContext } from './types';
import { publicProfile } from './users';

const emailBody = z.object({ email: z.string().trim().min(1).max(320) });
const subParams = z.object({ sub: z.string().min(1).max(200) });
// The statuses the server may set (provider-protocol.md); PENDING is cidaas's own, not settable.
const statusBody = z.object({
  status: z.enum(['VERIFIED', 'DECLINED', 'BLOCKED']),
  reason: z.string().optional(),
});
// Only email_verified is the server's; the other profile fields are accepted and left alone.
const profileBody = z.object({ email_verified: z.boolean().optional() }).loose();

/** User existence (both), user by e-mail, user by sub, status, mark e-mail verified. */
export function userRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  const admin = { onRequest: requireBearer(ctx) };

  // The hosted page's check (public). The request id is not checked: nothing shows that cidaas does.
  app.post('/useractions-srv/userexistence/:requestId', async (request, reply) => {
    const body = emailBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.byEmail(body.data.email);
    return user ? answer(reply, { exist: true }) : userNotFound(reply, ctx.variants().userNotFound);
  });

  // Whether `sub` comes with it is unknown (variant existenceCarriesSub).
  app.post('/useractions-srv/userexistence', admin, async (request, reply) => {
    const body = emailBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.byEmail(body.data.email);
    const variants = ctx.variants();
    if (!user) return userNotFound(reply, variants.userNotFound);
    const identity = variants.existenceCarriesSub ? { sub: user.sub, userStatus: user.userStatus } : {};
    return answer(reply, { exist: true, ...identity });
  });

  app.post('/users-srv/user/search', admin, async (request, reply) => {
    const body = emailBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.byEmail(body.data.email);
    if (!user) return answer(reply, []);
    const { sub, email, email_verified, userStatus } = user;
    return answer(reply, [{ sub, email, email_verified, userStatus }]);
  });

  app.get('/users-srv/internal/userinfo/profile/:sub', admin, async (request, reply) => {
    const params = subParams.safeParse(request.params);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    const user = ctx.users.bySub(params.data.sub);
    return user ? answer(reply, publicProfile(user)) : userNotFound(reply, ctx.variants().userNotFound);
  });

  app.patch('/user-srv/users/:sub/status', admin, async (request, reply) => {
    const params = subParams.safeParse(request.params);
    const body = statusBody.safeParse(request.body);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.bySub(params.data.sub);
    if (!user) return userNotFound(reply, ctx.variants().userNotFound);
    // Recorded: a transition to the status the user has is refused with 400.
    if (user.userStatus === body.data.status) {
      return refuse(reply, 400, CODES.statusUnchanged, `user is ${user.userStatus} already`);
    }
    user.userStatus = body.data.status;
    // A status set from outside starts a new series for the brute-force counter.
    user.failedAttempts = 0;
    return answer(reply, { updated: true });
  });

  app.put('/users-srv/user/profile/:sub', admin, async (request, reply) => {
    const params = subParams.safeParse(request.params);
    const body = profileBody.safeParse(request.body);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.bySub(params.data.sub);
    // provider-protocol.md gives this call one answer for an unknown sub (ours): 417 + 10301.
    if (!user) return refuse(reply, 417, CODES.userNotFound, 'user not found');
    if (body.data.email_verified !== undefined) user.email_verified = body.data.email_verified;
    return answer(reply, { updated: true });
  });
}
