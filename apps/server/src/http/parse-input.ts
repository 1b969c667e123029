import type { z } from 'zod';
import { AppError, type ServerErrorCode } from './errors';

/**
 * ARCHITECTURE §6: input is parsed by a contracts schema at the boundary; what does not fit is a 400
 * envelope naming the fields (never their values: they may be passwords) and changes nothing.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: ServerErrorCode = 'invalid_request',
): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'body'))];
  throw new AppError(400, code, `Invalid or missing: ${fields.join(', ')}`);
}
