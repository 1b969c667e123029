import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hasBearer, requireBearer } from './admin-auth';
import { unblockUser } from './blocks';
import {
  accessDenied,
  answer,
  CODES,
  describeIssues,
  malformed,
  noSuchCall,
  refuse,
  userNotFound,
} from './envelope';
import type { DoubleContext, UserStatus } from './types';
import { touch } from './users';

const subParams = z.object({ sub: z.string().min(1).max(200) });

// The body's field name is unknown (docs.cidaas.com openapi/user/patch-user-status shows none that
// the research could read): `status`, with an optional reason under either plausible name.
const statusBody = z
  .object({
    status: z.string().min(1).max(50),
    reason: z.string().max(1000).optional(),
    user_status_reason: z.string().max(1000).optional(),
  })
  .loose();

/**
 * Documented transitions (openapi/user/patch-user-status): VERIFIED → DECLINED, PENDING; PENDING →
 * VERIFIED, DECLINED; DECLINED → VERIFIED, PENDING; "any other change" → 400. BLOCKED, COMBINED and
 * DELETED are system-managed and cannot be set, and nothing leaves BLOCKED through this call.
 */
const TRANSITIONS: Record<UserStatus, readonly UserStatus[]> = {
  VERIFIED: ['DECLINED', 'PENDING'],
  PENDING: ['VERIFIED', 'DECLINED'],
  DECLINED: ['VERIFIED', 'PENDING'],
  BLOCKED: [],
};
const SYSTEM_MANAGED = ['BLOCKED', 'COMBINED', 'DELETED'];

// The documented admin update (openapi/user/put-user-by-sub): system fields through `userData`, which
// names the identity by `identityId` and `provider` ("both matching an existing identity";
// `provider` must not change); `customFields` and `mfa_enabled` beside it.
const adminUpdateBody = z
  .object({
    userData: z
      .object({
        provider: z.string().min(1).max(50),
        identityId: z.string().min(1).max(200).optional(),
        email_verified: z.boolean().optional(),
      })
      .loose(),
    customFields: z.record(z.string(), z.unknown()).optional(),
    mfa_enabled: z.boolean().optional(),
  })
  .loose();

// The legacy update's flat body (inheaden/cidaasutils UserUpdateRequest: email, family_name,
// given_name, mobile_number, provider, locale, customFields); `email_verified` beside them is what
// the variant adminUpdate 'legacy-only' assumes cidaas takes (unknown).
const legacyUpdateBody = z
  .object({ provider: z.string().max(50).optional(), email_verified: z.boolean().optional() })
  .loose();

// cidaas documents no unblock by anything but `sub` in the 4.0.6 reference; the unversioned page
// also names `identifier`, which the double does not serve.
const unblockBody = z.object({ sub: z.string().max(200).optional() }).loose();

/** Status, the admin and self-service updates, and fraud detection's unblock. */
export function accountRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  const admin = { onRequest: requireBearer(ctx) };

  // Answers: 200 "success" (documented; the body `{updated:true}` is unknown), 400 for a transition
  // the table does not allow (documented; code ours), "not found" per variant userNotFound (unknown).
  app.patch('/user-srv/users/:sub/status', admin, async (request, reply) => {
    const params = subParams.safeParse(request.params);
    const body = statusBody.safeParse(request.body);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.bySub(params.data.sub);
    if (!user) return userNotFound(reply, ctx.variants().userNotFound);
    const wanted = body.data.status;
    if (SYSTEM_MANAGED.includes(wanted)) {
      return refuse(reply, 400, CODES.statusNotAllowed, `${wanted} is a system-managed status`);
    }
    if (!(wanted in TRANSITIONS)) return malformed(reply, `status: unknown status ${wanted}`);
    if (!TRANSITIONS[user.userStatus].includes(wanted as UserStatus)) {
      return refuse(reply, 400, CODES.statusNotAllowed, `${user.userStatus} cannot change to ${wanted}`);
    }
    user.userStatus = wanted as UserStatus;
    // Ours: a status set from outside starts a new series for the brute-force counter (unknown).
    user.failedAttempts = 0;
    touch(user);
    return answer(reply, { updated: true });
  });

  // The documented admin update. Whether a client-credentials token may set email_verified here is
  // the variant adminUpdate: 'legacy-only' refuses with the recorded 401 body. Documented answers
  // 200 (body not captured; `{updated:true}` assumed), 400 "Identity with specified identityId and
  // provider does not exist for the user", 401, 417. Whether identityId may be left out: unknown
  // (accepted).
  app.put('/user-srv/users/:sub', admin, async (request, reply) => {
    if (ctx.variants().adminUpdate === 'legacy-only') return accessDenied(reply);
    const params = subParams.safeParse(request.params);
    const body = adminUpdateBody.safeParse(request.body);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.bySub(params.data.sub);
    if (!user) return userNotFound(reply, ctx.variants().userNotFound);
    const { provider, identityId, email_verified: emailVerified } = body.data.userData;
    if (provider !== 'self' || (identityId !== undefined && identityId !== user.identityId)) {
      return refuse(
        reply,
        400,
        CODES.noSuchIdentity,
        'Identity with specified identityId and provider does not exist for the user',
      );
    }
    if (emailVerified !== undefined) user.email_verified = emailVerified;
    touch(user);
    return answer(reply, { updated: true });
  });

  // The legacy admin update (inheaden/cidaasutils UpdateUserProfileInternally, an admin token; in no
  // cidaas doc). Only in the variant adminUpdate 'legacy-only'; otherwise no such call (404, ours).
  // The answer `{updated:true}` is the one recorded for the self-service update (PHP SDK tests).
  app.put('/users-srv/user/:sub', async (request, reply) => {
    if (ctx.variants().adminUpdate !== 'legacy-only') return noSuchCall(reply);
    if (!hasBearer(ctx, request)) return accessDenied(reply);
    const params = subParams.safeParse(request.params);
    const body = legacyUpdateBody.safeParse(request.body);
    if (!params.success) return malformed(reply, describeIssues(params.error));
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const user = ctx.users.bySub(params.data.sub);
    if (!user) return userNotFound(reply, ctx.variants().userNotFound);
    if (body.data.email_verified !== undefined) user.email_verified = body.data.email_verified;
    touch(user);
    return answer(reply, { updated: true });
  });

  // The self-service update: documented as the user's own ("User Self-Service | PUT
  // /users-srv/user/profile/{sub} | profile | User updates own profile"; recorded with the user's own
  // token in the PHP SDK tests). Every token of the double is the admin client's, which has no user:
  // answered with the recorded 401 body (that cidaas refuses it so: unknown), never accepted.
  app.put('/users-srv/user/profile/:sub', async (_request, reply) => accessDenied(reply));

  // Fraud detection's unblock (documented: openapi/4.0.6/fds/post-unblock, scope
  // cidaas:fds_settings_write, not checked here): 200 "the subject was unblocked" (body not
  // documented: an empty `data` assumed), 204 when no blocked sub matched, 400 without a non-empty
  // `sub`, 401. A tenant without fraud detection (variant fraudDetection false): no such call.
  app.post('/fraud-detection-srv/unblock', async (request, reply) => {
    if (!ctx.variants().fraudDetection) return noSuchCall(reply);
    if (!hasBearer(ctx, request)) return accessDenied(reply);
    const body = unblockBody.safeParse(request.body ?? {});
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const sub = body.data.sub?.trim();
    if (!sub) return refuse(reply, 400, CODES.subMissing, 'body must include a non-empty sub');
    const user = ctx.users.bySub(sub);
    if (!user || !unblockUser(user)) return reply.code(204).send();
    return answer(reply, {});
  });
}
