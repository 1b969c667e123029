import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireBearer } from './admin-auth';
import { answer, CODES, describeIssues, malformed, refuse } from './envelope';
import type { DoubleContext } from './types';

// Only the LINK-by-e-mail reset is the server's; another kind would mail something else (the double
// refuses it: ours).
const initiateBody = z.object({
  requestId: z.string().min(1).max(200),
  email: z.string().trim().min(1).max(320),
  processingType: z.literal('LINK'),
  resetMedium: z.literal('email'),
});
const acceptBody = z.object({
  resetRequestId: z.string().min(1).max(200),
  exchangeId: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
  confirmPassword: z.string().max(1000),
});

const SUCCESS_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Password changed</title></head>
<body><h1>Your password has been changed</h1></body></html>`;

/** Password reset by e-mailed link (admin API, as the server calls it). */
export function resetRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  const admin = { onRequest: requireBearer(ctx) };

  // The same answer for every e-mail, `{reset_initiated:true, rprq}` (recorded); a link exists only
  // for a known user. An expired request id: 400 + 10001 (recorded).
  app.post('/users-srv/resetpassword/initiate', admin, async (request, reply) => {
    const body = initiateBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const authRequest = ctx.requestIds.live(body.data.requestId);
    if (!authRequest) return refuse(reply, 400, CODES.invalidRequestId, 'Invalid request id');
    const rprq = randomUUID();
    const user = ctx.users.byEmail(body.data.email);
    if (user) ctx.resets.create(user.sub, authRequest.requestId, authRequest.clientId, rprq);
    return answer(reply, { reset_initiated: true, rprq });
  });

  // Recorded: `{reseted:true}`, bad ids 400 + 10002, a mismatch 417 + 10009; the answer's form is
  // the variant resetAcceptAnswer. Sets the password only: the status and a brute-force block stay
  // as they are (whether a reset lifts cidaas's block is unknown; the client must not count on it).
  app.post('/users-srv/resetpassword/accept', admin, async (request, reply) => {
    const body = acceptBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const { resetRequestId, exchangeId, password, confirmPassword } = body.data;
    const link = ctx.resets.findUnused(resetRequestId, exchangeId);
    if (!link) return refuse(reply, 400, CODES.invalidResetRequest, 'Invalid resetRequestId');
    if (password !== confirmPassword) {
      return refuse(reply, 417, CODES.passwordMismatch, 'password and confirmPassword do not match');
    }
    const user = ctx.users.bySub(link.sub);
    if (!user) return refuse(reply, 400, CODES.invalidResetRequest, 'Invalid resetRequestId');
    user.password = password;
    link.isUsed = true;
    ctx.webhooks.schedule(reply, [{ eventtype: 'PASSWORD_RESET', client_id: link.clientId, sub: user.sub }]);

    const kind = ctx.variants().resetAcceptAnswer;
    if (kind === 'redirect') {
      return reply.redirect(`https://${ctx.tenant.key}.cidaas.example/password-success`, 302);
    }
    if (kind === 'html') return reply.code(200).type('text/html; charset=utf-8').send(SUCCESS_PAGE);
    return answer(reply, { reseted: true });
  });
}
