import { z } from 'zod';

/** The cidaas-style answer envelope (provider-protocol.md, "Conventions"). */
export interface ErrorBody {
  code: number | string;
  type: string;
  error: string;
  referenceNumber?: string;
}

export type Envelope<T> =
  | { success: true; status: number; data: T }
  | { success: false; status: number; error: ErrorBody };

export function ok<T>(data: T, status = 200): Envelope<T> {
  return { success: true, status, data };
}

export function failure(
  status: number,
  code: number | string,
  message: string,
  type = 'error',
): Envelope<never> {
  return { success: false, status, error: { code, type, error: message } };
}

/** Reads an envelope tolerantly: cidaas answers vary, callers look at `success` first. */
export const envelopeSchema = z.object({
  success: z.boolean(),
  status: z.number().optional(),
  data: z.unknown().optional(),
  error: z
    .union([
      z.object({ code: z.union([z.number(), z.string()]).optional(), error: z.string().optional() }).loose(),
      z.string(),
    ])
    .optional(),
});
