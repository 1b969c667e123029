import type { RequestIdStore } from './requests';
import type { ResetLinks } from './reset-links';
import type { UserStore } from './users';
import type { WebhookSender } from './webhooks';

export type UserStatus = 'VERIFIED' | 'DECLINED' | 'BLOCKED' | 'PENDING';

/** A user as the double keeps it; `user(email)` hands out copies of these. */
export interface DoubleUser {
  sub: string;
  email: string;
  password: string;
  userStatus: UserStatus;
  email_verified: boolean;
  given_name?: string;
  /** Consecutive wrong passwords; what cidaas's brute-force protection counts. */
  failedAttempts: number;
}

export interface NewDoubleUser {
  email: string;
  password: string;
  userStatus?: UserStatus;
  email_verified?: boolean;
  given_name?: string;
}

/** The answers nothing public shows (cidaas-facts.md "unknown"): one per test, all of them covered. */
export interface CidaasDoubleVariants {
  /** How "user not found" is answered by both user-existence calls, user-by-sub and status. */
  userNotFound: '204' | '417' | '404';
  /** Whether the admin existence answer carries `sub` (and userStatus). */
  existenceCarriesSub: boolean;
  /** Registration fields the tenant requires: missing → 417 + 507 "<field> cannot be null". */
  requiredRegistrationFields: string[];
  /** How reset accept answers a success: JSON envelope, a 302 to a hosted page, or a 200 HTML page. */
  resetAcceptAnswer: 'json' | 'redirect' | 'html';
  /** Delay before each webhook is sent, ms (0 = right after the answer). */
  webhookDelayMs: number;
  /** cidaas's own brute-force blocking: the N-th consecutive failure sets BLOCKED; 0 = off. */
  blockAfterFailures: number;
}

// The defaults are the documented answer (204) and the shapes that ask the most of the client.
export const DEFAULT_VARIANTS: CidaasDoubleVariants = {
  userNotFound: '204',
  existenceCarriesSub: false,
  requiredRegistrationFields: [],
  resetAcceptAnswer: 'json',
  webhookDelayMs: 0,
  blockAfterFailures: 0,
};

export interface DoubleClient {
  clientId: string;
  /** The operator-configured hosted login page, e.g. 'http://portal.test/login?subdomain=demo'. */
  hostedPageUrl: string;
  redirectUris: string[];
}

export interface WebhookTarget {
  url: string;
  apiKeyHeader: string;
  apiKey: string;
}

export interface CidaasDoubleOptions {
  /** The admin client (client credentials). */
  clientCredentials: { clientId: string; clientSecret: string };
  /** Relying-party clients; at least one (an expired login goes back to the first one's page). */
  clients: DoubleClient[];
  webhook?: WebhookTarget;
  variants?: Partial<CidaasDoubleVariants>;
  /** tenantinfo/basic and the reset success page `https://<key>.cidaas.example/…`. */
  tenant?: { name: string; key: string };
}

export interface RecordedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** JSON or form body as parsed; undefined when there was none (or it could not be parsed). */
  body: unknown;
}

export interface CidaasDouble {
  url: string;
  /** Read on every call: change them between calls. */
  variants: CidaasDoubleVariants;
  addUser(user: NewDoubleUser): { sub: string };
  user(email: string): DoubleUser | undefined;
  /** The reset link cidaas would e-mail for the last initiate of this e-mail. */
  lastReset(email: string): { rprq: string; exchangeId: string; requestId: string } | undefined;
  /** Makes every request id issued so far expired (as if 30 min passed). */
  expireRequestIds(): void;
  /** Makes every admin access token issued so far invalid (for the client's retry on 401). */
  revokeTokens(): void;
  requests: RecordedRequest[];
  /** Resolves when every webhook scheduled so far has been delivered (or given up). */
  webhooksSettled(): Promise<void>;
  /** Where webhooks go from now on (options.webhook, when the receiver starts after the double). */
  setWebhook(target: WebhookTarget): void;
  close(): Promise<void>;
}

/** What the route modules share. */
export interface DoubleContext {
  options: CidaasDoubleOptions;
  tenant: { name: string; key: string };
  /** A function, not a value: tests replace fields (or the whole object) between calls. */
  variants(): CidaasDoubleVariants;
  users: UserStore;
  requestIds: RequestIdStore;
  resets: ResetLinks;
  webhooks: WebhookSender;
  tokens: Set<string>;
}
