import { emailSchema, isStrongPassword, ok } from '@concierge/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { findInteraction } from '../oidc/interactions';
import { createUser, maskedSub } from '../users/users';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

// Unknown fields are dropped, not refused: cidaas's register takes many more and the server's one
// provider client may send them. roles is ours, for test set-ups.
const registerBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
  password_echo: z.string().min(1).max(1024),
  given_name: optionalText(200),
  family_name: optionalText(200),
  locale: optionalText(35),
  mobile_number: optionalText(40),
  provider: z.literal('self').optional(),
  roles: z.array(z.string().min(1).max(100)).max(50).optional(),
});

/** What this tenant's registration requires; cidaas answers 417 + 507 when one is missing (recorded). */
const REQUIRED_FIELDS = ['email', 'password', 'password_echo'] as const;

function missingRequiredField(body: unknown): string | undefined {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return REQUIRED_FIELDS.find((field) => {
    const value = fields[field];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  });
}

/**
 * `POST /users-srv/register` (provider-protocol.md, "Admin API"). As at cidaas it needs the header
 * requestId naming a live sign-in request, and the new user is VERIFIED with an unverified e-mail.
 */
export const registerRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, db, provider }) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  app.post('/users-srv/register', async (request, reply) => {
    const requestId = request.headers.requestid;
    const interaction =
      typeof requestId === 'string' && requestId.length <= 200
        ? await findInteraction(provider, requestId)
        : undefined;
    if (!interaction) {
      return refuse(reply, 400, CIDAAS_CODES.INVALID_REQUEST_ID, 'Invalid request id', 'UsersException');
    }
    const missing = missingRequiredField(request.body);
    if (missing) {
      return refuse(
        reply,
        417,
        CIDAAS_CODES.REQUIRED_FIELD_MISSING,
        `${missing} cannot be null`,
        'UsersException',
      );
    }
    const body = registerBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { password, password_echo: passwordEcho, provider: _provider, ...profile } = body.data;
    if (password !== passwordEcho) {
      return refuse(
        reply,
        417,
        CIDAAS_CODES.PASSWORD_MISMATCH,
        'password and password_echo differ',
        'UsersException',
      );
    }
    if (!isStrongPassword(password)) {
      return refuse(
        reply,
        417,
        CIDAAS_CODES.PASSWORD_RULES,
        'the password does not meet the password rules',
        'UsersException',
      );
    }
    const created = await createUser(db, { ...profile, password, status: 'VERIFIED', email_verified: false });
    if (!created.isCreated) {
      return refuse(
        reply,
        409,
        CIDAAS_CODES.EMAIL_TAKEN,
        'the e-mail address is already registered',
        'UsersException',
      );
    }
    return ok({
      sub: created.sub,
      userStatus: 'VERIFIED',
      email_verified: false,
      q: maskedSub(created.sub),
      suggested_action: '',
      suggested_redirect_uri: '',
      next_token: '',
    });
  });
};
