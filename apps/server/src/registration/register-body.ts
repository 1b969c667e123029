import { registerUserBodySchema } from '@concierge/contracts';
import type { z } from 'zod';
import { callError } from '../http/errors';

/**
 * register-user's body through the contracts schema. A bad registration code gets the spec's own
 * codes (§8: registrationCodeRequired, registrationCodeInvalidFormat); anything else is
 * missing_request_property naming the fields — never their values, one of them is a password.
 */
export function parseRegisterBody(body: unknown): z.output<typeof registerUserBodySchema> {
  const parsed = registerUserBodySchema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'body'))];
  if (fields.includes('registrationcode')) {
    const raw =
      typeof body === 'object' && body !== null
        ? (body as Record<string, unknown>).registrationcode
        : undefined;
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
      throw callError(
        'register-user',
        400,
        'registrationCodeRequired',
        'Please enter your registration code.',
      );
    }
    throw callError(
      'register-user',
      400,
      'registrationCodeInvalidFormat',
      'The registration code must be a version-4 UUID.',
    );
  }
  throw callError(
    'register-user',
    400,
    'missing_request_property',
    `Invalid or missing: ${fields.join(', ')}`,
  );
}
