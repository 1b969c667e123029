import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from './email';

/** The hosted-page login form the portal posts to the provider (provider-protocol.md). */
export const loginFormSchema = z.object({
  username: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
  password: z.string().min(1).max(1024),
  requestId: z.string().min(1).max(200),
  username_type: z.literal('email').optional(),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const userExistenceBodySchema = z.object({
  email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
  requestId: z.string().max(200).optional(),
});
