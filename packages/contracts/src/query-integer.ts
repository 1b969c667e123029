import { z } from 'zod';

/**
 * A whole number from a query string, `min` to `max`: digits only. `z.coerce.number()` took what
 * `Number()` takes — " " and "" as 0, "0x10" as 16, "1e2" as 100 — so a malformed parameter was read
 * as a value instead of being refused.
 */
export function queryInteger(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,15}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
