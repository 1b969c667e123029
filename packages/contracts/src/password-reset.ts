import { z } from 'zod';
import { emailSchema } from './email-schema';

/**
 * `POST /users-srv/resetpassword/initiate` (provider-protocol.md, "Admin API"). acceptLanguage is ours:
 * the e-mail's language when the user has none on record.
 */
export const resetPasswordInitiateBodySchema = z.object({
  requestId: z.string().min(1).max(200),
  email: emailSchema,
  processingType: z.literal('LINK'),
  resetMedium: z.literal('email'),
  acceptLanguage: z.string().max(200).optional(),
});

/** The answer's data, the same for known and unknown e-mails. */
export const resetPasswordInitiatedSchema = z.object({
  reset_initiated: z.boolean(),
  rprq: z.string().min(1),
});

/** `POST /users-srv/resetpassword/accept`; the password rules are checked by the provider. */
export const resetPasswordAcceptBodySchema = z.object({
  resetRequestId: z.string().min(1).max(200),
  exchangeId: z.string().min(1).max(200),
  password: z.string().min(1).max(1024),
  confirmPassword: z.string().min(1).max(1024),
});

/** The answer's data (cidaas spells it "reseted"). */
export const resetPasswordAcceptedSchema = z.object({ reseted: z.boolean() });
