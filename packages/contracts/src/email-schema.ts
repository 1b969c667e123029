import { z } from 'zod';
import { EMAIL_MAX_LENGTH, isEmailAddress } from './email';

/** Trims (spec §5: login trims on input) and checks the address pattern. */
export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .refine(isEmailAddress, { message: 'The email address format is invalid.' });
