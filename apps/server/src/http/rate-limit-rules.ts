import type { RateLimitRule } from './rate-limit';

/** So many hits within a window. */
export interface Limit {
  limit: number;
  windowSeconds: number;
}

/**
 * The limits of one action, by what they count. `email` and `code` count what identifies the actor
 * (the person whose account or letter it is), wherever they come from; `address` counts the client
 * address, which many people may share (a carrier's NAT, an estate's Wi-Fi), so the operator can
 * scale it (ADDRESS_LIMITS_FACTOR). `key` prefixes the rows in `rate_limits`: kept across releases,
 * so that a rollout does not give a limited client a fresh window.
 */
export interface ActionLimits {
  key: string;
  address?: Limit;
  email?: Limit;
  code?: Limit;
}

const MINUTE = 60;
const QUARTER_HOUR = 15 * MINUTE;
const HOUR = 60 * MINUTE;

/** Every rate limit of the portal's calls, with why it is where it is. */
export const RATE_LIMITS = {
  // Enough for a person at a login form, too few to probe many e-mails or to hammer one.
  failedLoginCounter: {
    key: 'counter',
    address: { limit: 60, windowSeconds: MINUTE },
    email: { limit: 20, windowSeconds: MINUTE },
  },
  // Each attempt costs the provider a look-up and maybe a password hash; people register once.
  registration: {
    key: 'register',
    address: { limit: 30, windowSeconds: QUARTER_HOUR },
    email: { limit: 10, windowSeconds: QUARTER_HOUR },
  },
  // A letter's code that answers "already registered" for address after address is being used to
  // probe which addresses have accounts (registration/register-user.ts).
  registeredAnswers: { key: 'register:registered-answers', code: { limit: 5, windowSeconds: HOUR } },
  activation: { key: 'activate', address: { limit: 60, windowSeconds: QUARTER_HOUR } },
  // A person asks a few times at most; more is somebody filling another person's inbox.
  resendActivation: {
    key: 'resend-activation',
    address: { limit: 30, windowSeconds: QUARTER_HOUR },
    email: { limit: 5, windowSeconds: HOUR },
  },
  // A person asks a few times at most; more is somebody mailing other people's inboxes.
  resetInitiate: {
    key: 'reset-initiate',
    address: { limit: 20, windowSeconds: QUARTER_HOUR },
    email: { limit: 5, windowSeconds: QUARTER_HOUR },
  },
  // A person asks once per invitation (a repeat changes nothing); more is somebody trying links or
  // filling the office's inbox (registration/new-invitation-request.ts).
  newInvitationRequest: {
    key: 'new-invitation-request',
    address: { limit: 20, windowSeconds: QUARTER_HOUR },
    email: { limit: 5, windowSeconds: HOUR },
  },
  // An office signs in a few times a day; each start keeps a row for ten minutes (console_sign_ins).
  consoleSignIn: { key: 'console-sign-in', address: { limit: 30, windowSeconds: QUARTER_HOUR } },
  // Each attempt is a password hash at the provider.
  resetSetNew: { key: 'reset-set-new', address: { limit: 20, windowSeconds: QUARTER_HOUR } },
} as const satisfies Record<string, ActionLimits>;

export type RateLimits = { [Action in keyof typeof RATE_LIMITS]: ActionLimits };

/**
 * The limits with every per-address limit multiplied by `addressFactor` (at least 1 hit); what
 * identifies the actor is left as it is.
 */
export function scaleAddressLimits(addressFactor: number): RateLimits {
  return Object.fromEntries(
    Object.entries(RATE_LIMITS).map(([action, limits]: [string, ActionLimits]) => [
      action,
      limits.address
        ? {
            ...limits,
            address: {
              ...limits.address,
              limit: Math.max(1, Math.round(limits.address.limit * addressFactor)),
            },
          }
        : limits,
    ]),
  ) as RateLimits;
}

/**
 * The rules one hit of an action counts against: the address first, then the e-mail, then the code
 * (a caller that stops at the first refusal leaves the later ones uncounted).
 */
export function rulesOf(
  limits: ActionLimits,
  who: { address?: string; email?: string; code?: string },
): RateLimitRule[] {
  const rules: RateLimitRule[] = [];
  for (const scope of ['address', 'email', 'code'] as const) {
    const limit = limits[scope];
    const value = who[scope];
    if (!limit) continue;
    if (value === undefined)
      throw new Error(`The ${limits.key} limit counts by ${scope}, and none was given`);
    // "ip" as the rows have always been keyed, so that a rollout keeps the windows running.
    rules.push({ key: `${limits.key}:${scope === 'address' ? 'ip' : scope}:${value}`, ...limit });
  }
  return rules;
}
