import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeIssues, malformed } from './envelope';
import { findClient, PAGE_PARAMS, withParams } from './hosted-routes';
import type { DoubleContext, DoubleUser } from './types';
import { maskSub } from './users';
import type { DoubleEventType } from './webhooks';

const loginFormSchema = z.object({
  username: z.string().trim().min(1).max(320),
  password: z.string().max(1000),
  requestId: z.string().min(1).max(200),
  username_type: z.string().max(50).optional(),
});

type Outcome = 'signed_in' | 'email_not_verified' | 'invalid_username_password';

/**
 * Decides a password attempt and keeps cidaas's brute-force counter. Locked users (DECLINED, BLOCKED)
 * are refused like a wrong password and not counted again; the right password ends a series.
 */
function judge(user: DoubleUser, password: string, blockAfter: number) {
  const failure = (events: DoubleEventType[]) => ({
    outcome: 'invalid_username_password' as Outcome,
    events,
  });
  if (user.userStatus === 'DECLINED' || user.userStatus === 'BLOCKED') return failure(['LOGIN_FAILURE']);
  if (user.password !== password) {
    user.failedAttempts += 1;
    if (blockAfter > 0 && user.failedAttempts >= blockAfter) {
      user.userStatus = 'BLOCKED';
      return failure(['LOGIN_FAILURE', 'ACCOUNT_LOCKED']);
    }
    return failure(['LOGIN_FAILURE']);
  }
  user.failedAttempts = 0;
  // The tenant's verification pre-check; a PENDING user (older setups) is unverified by definition.
  if (user.userStatus === 'PENDING' || !user.email_verified) {
    return { outcome: 'email_not_verified' as Outcome, events: [] };
  }
  return { outcome: 'signed_in' as Outcome, events: ['LOGIN_WITH_CIDAAS'] as DoubleEventType[] };
}

/**
 * `POST /login-srv/login`, the hosted page's form post. Every answer is a 302 (recorded); the
 * failure parameters are the recorded ones, with `sub`/`q` for a known user and
 * `error_description` for an unknown one. Webhooks follow the answer, never precede it.
 */
export function loginRoute(app: FastifyInstance, ctx: DoubleContext): void {
  app.post('/login-srv/login', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return malformed(reply, 'the login is a form post (application/x-www-form-urlencoded)');
    }
    const form = loginFormSchema.safeParse(request.body);
    if (!form.success) return malformed(reply, describeIssues(form.error));
    const { username, password, requestId } = form.data;
    const who: Array<[string, string]> = [
      ['username', username],
      ['username_type', 'email'],
    ];

    const authRequest = ctx.requestIds.live(requestId);
    const client = authRequest && findClient(ctx, authRequest.clientId);
    if (!authRequest || !client) {
      // Unknown in cidaas: the recorded failure parameters without the dead request id.
      const page = ctx.options.clients[0]!.hostedPageUrl;
      return reply.redirect(withParams(page, [...PAGE_PARAMS, ['error', 'session_expired'], ...who]), 302);
    }
    const back = (params: Array<[string, string]>) =>
      reply.redirect(withParams(client.hostedPageUrl, [...PAGE_PARAMS, ...params]), 302);

    const user = ctx.users.byEmail(username);
    if (!user) {
      return back([
        ['error', 'invalid_username_password'],
        ['error_description', 'Given username or password is invalid'],
        ...who,
        ['requestId', requestId],
      ]);
    }
    const { outcome, events } = judge(user, password, ctx.variants().blockAfterFailures);
    ctx.webhooks.schedule(
      reply,
      events.map((eventtype) => ({ eventtype, client_id: client.clientId, sub: user.sub })),
    );
    if (outcome === 'invalid_username_password') {
      return back([
        ['error', outcome],
        ...who,
        ['requestId', requestId],
        ['sub', user.sub],
        ['q', maskSub(user.sub)],
      ]);
    }
    if (outcome === 'email_not_verified') return back([['error', outcome], ...who, ['requestId', requestId]]);

    authRequest.isFinished = true;
    const target = new URL(authRequest.redirectUri);
    // The code is not redeemable here: the double has no token exchange for it (not in its sections).
    target.searchParams.set('code', randomBytes(24).toString('base64url'));
    if (authRequest.state !== undefined) target.searchParams.set('state', authRequest.state);
    return reply.redirect(target.toString(), 302);
  });
}
