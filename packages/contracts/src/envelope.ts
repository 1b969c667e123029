import { z } from 'zod';

/** The cidaas-style answer envelope (provider-protocol.md, "Conventions"). */
export interface ErrorBody {
  /** cidaas sends integers (10001, 10301 …); the portal API's own codes are strings (spec §8). */
  code: number | string;
  type: string;
  error: string;
  status?: number;
  moreInfo?: string;
  referenceNumber?: string;
}

export type Envelope<T> =
  | { success: true; status: number; data: T }
  | { success: false; status: number; error: ErrorBody };

export function ok<T>(data: T, status = 200): Envelope<T> {
  return { success: true, status, data };
}

/**
 * A refusal in cidaas's shape (cidaas-facts.md, "Error envelope"): the status repeated inside the
 * error, an empty moreInfo and a reference number that a log line can be found by.
 */
export function failure(
  status: number,
  code: number | string,
  message: string,
  type = 'error',
): Envelope<never> {
  return {
    success: false,
    status,
    error: { code, moreInfo: '', type, status, referenceNumber: newReferenceNumber(), error: message },
  };
}

/** `<milliseconds>-<random hex>`, as cidaas's reference numbers look. */
export function newReferenceNumber(): string {
  const random = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(6)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
  return `${Date.now()}-${random}`;
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
