import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { blockUser } from './blocks';
import { describeIssues, malformed } from './envelope';
import { findClient, PAGE_PARAMS, withParams } from './hosted-routes';
import type { CidaasDoubleVariants, DoubleContext, DoubleUser } from './types';
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
 * Decides a password attempt and keeps cidaas's brute-force counter. Locked users (DECLINED, BLOCKED,
 * or on the fraud block list) are refused like a wrong password and not counted again (documented:
 * DECLINED and BLOCKED keep a user out; that the answer is the wrong password's is recorded for
 * wrong passwords and unknown users only, provider-protocol.md). The right password ends a series.
 */
function judge(user: DoubleUser, password: string, variants: CidaasDoubleVariants) {
  const failure = (events: DoubleEventType[]) => ({
    outcome: 'invalid_username_password' as Outcome,
    events,
  });
  const isLocked = user.userStatus === 'DECLINED' || user.userStatus === 'BLOCKED' || user.isFraudBlocked;
  if (isLocked) return failure(['LOGIN_FAILURE']);
  if (user.password !== password) {
    user.failedAttempts += 1;
    // The block list is fraud detection's: a tenant without it has no brute-force block (types.ts).
    const blockAfter = variants.fraudDetection ? variants.blockAfterFailures : 0;
    if (blockAfter > 0 && user.failedAttempts >= blockAfter) {
      blockUser(user, variants.bruteForceBlock);
      return failure(['LOGIN_FAILURE', 'ACCOUNT_LOCKED']);
    }
    return failure(['LOGIN_FAILURE']);
  }
  user.failedAttempts = 0;
  // A PENDING user ("not yet verified", documented) is treated like an unverified e-mail.
  if (user.userStatus === 'PENDING' || !user.email_verified) {
    return { outcome: 'email_not_verified' as Outcome, events: [] };
  }
  return { outcome: 'signed_in' as Outcome, events: ['LOGIN_WITH_CIDAAS'] as DoubleEventType[] };
}

/**
 * `POST /login-srv/login`, the hosted page's form post. Every answer is a 302 (recorded); the
 * failure parameters are the recorded ones (cidaas-facts.md "Hosted-page login"), with `sub`/`q` for
 * a known user and `error_description` for an unknown one. Webhooks follow the answer, never
 * precede it; a failure of an unknown e-mail sends none (what cidaas sends then is unknown, and the
 * documented body has no field for an e-mail that belongs to nobody).
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
      // Unknown in cidaas ("nothing public shows the exact error key"): the recorded failure
      // parameters, `error=session_expired` (the embedded provider's key), without the dead request id.
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
    const { outcome, events } = judge(user, password, ctx.variants());
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
    if (outcome === 'email_not_verified') {
      // The verification pre-check (variant verificationAtSignIn, sources in types.ts).
      if (ctx.variants().verificationAtSignIn === 'precheck') {
        const page = client.verificationPageUrl ?? client.hostedPageUrl;
        const trackId = randomBytes(12).toString('hex');
        return reply.redirect(
          withParams(page, [
            ['requestId', requestId],
            ['track_id', trackId],
            ['sub', user.sub],
          ]),
          302,
        );
      }
      return back([['error', outcome], ...who, ['requestId', requestId]]);
    }

    authRequest.isFinished = true;
    const target = new URL(authRequest.redirectUri);
    // Recorded: on to the redirect_uri with a code (and the state). The code is not redeemable here:
    // the double has no token exchange for it.
    target.searchParams.set('code', randomBytes(24).toString('base64url'));
    if (authRequest.state !== undefined) target.searchParams.set('state', authRequest.state);
    return reply.redirect(target.toString(), 302);
  });
}
