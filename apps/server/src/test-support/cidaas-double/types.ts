import type { RequestIdStore } from './requests';
import type { ResetLinks } from './reset-links';
import type { UserStore } from './users';
import type { WebhookSender } from './webhooks';

// Sources named in this folder (see /work/shared/design/cidaas-facts.md for the full list):
// - recorded: an answer captured from a real cidaas (PHP SDK tests, JS SDK answers);
// - documented: docs.cidaas.com (the page named), or an SDK's entity classes / README;
// - unknown: nothing public shows it; the answer is a variant below, or, where marked "ours", the
//   double's own choice that no client may rely on.

/**
 * cidaas's user statuses. PENDING: "created, not yet verified (auto-activation disabled)"; BLOCKED:
 * system-managed, set by cidaas's brute-force protection (documented: docs.cidaas.com
 * guides/user-management/user-management-flows/user-status). COMBINED and DELETED exist too but
 * no user of the double has them.
 */
export type UserStatus = 'VERIFIED' | 'DECLINED' | 'BLOCKED' | 'PENDING';

/** A user as the double keeps it; `user(email)` hands out copies of these. */
export interface DoubleUser {
  sub: string;
  email: string;
  password: string;
  userStatus: UserStatus;
  email_verified: boolean;
  given_name?: string;
  /** The user account's `_id` and its one identity's `_id` (documented nested profile). */
  accountId: string;
  identityId: string;
  /** ISO 8601 (documented fields of userAccount and identity). */
  createdTime: string;
  updatedTime: string;
  /** Consecutive wrong passwords; what cidaas's brute-force protection counts. */
  failedAttempts: number;
  /**
   * On the fraud detection's block list (documented: "Removes a blocked sub from the fraud block
   * list", docs.cidaas.com openapi/4.0.6/fds/post-unblock). Seeded BLOCKED users are on it too.
   */
  isFraudBlocked: boolean;
  /** The status a brute-force block replaced (variant bruteForceBlock 'status'), restored by unblock. */
  statusBeforeBlock?: UserStatus;
}

export interface NewDoubleUser {
  email: string;
  password: string;
  userStatus?: UserStatus;
  email_verified?: boolean;
  given_name?: string;
}

/**
 * The answers nothing public shows (cidaas-facts.md "unknown"), each switchable. The conformance
 * suite (provider-client/conformance.test.ts, DOUBLE_VARIANT_RUNS in conformance-targets.ts) runs
 * the server's provider client against every value of every variant a client call meets.
 */
export interface CidaasDoubleVariants {
  /**
   * "User not found" from both user-existence calls, user-by-sub, status, the admin updates.
   * '204' + nothing: documented for the admin existence (docs.cidaas.com
   * openapi/4.0.6/user/post-useractions-srv-userexistence-authenticated, "standard error envelope
   * with code 10301"; the double sends no body with a 204, as HTTP has it); '417' + 10301: older
   * docs list only 200/400/401/417; '404' + 10301: never seen at cidaas, the embedded provider's.
   */
  userNotFound: '204' | '417' | '404';
  /** Whether the admin existence answer carries `sub` (and userStatus). Unknown. */
  existenceCarriesSub: boolean;
  /**
   * The answer of `GET /users-srv/internal/userinfo/profile/{sub}`. 'nested' (documented: Android SDK
   * service/entity/userprofile/UseprofileResponseDataEntity.java, UserAccountEntity.java,
   * IdentityEntity.java; inheaden/cidaasutils user.go; the JS SDK README's getProfileInfo answer);
   * 'flat' `{sub, email, email_verified, userStatus}`: seen nowhere, what the embedded provider
   * answered before, kept so that the client's tolerance of it stays tested.
   */
  profileShape: 'nested' | 'flat';
  /**
   * Where the users of `POST /user-srv/graph/users` sit: documented is only "The response contains
   * an array of users" (docs.cidaas.com openapi/4.0.6/user/graph-find-users-by-filter).
   */
  searchAnswer: 'data' | 'data.users' | 'data.data';
  /**
   * Whether a client-credentials token may set `email_verified` through the documented admin update
   * `PUT /user-srv/users/{sub}` (docs.cidaas.com openapi/user/put-user-by-sub): unknown. 'user-srv':
   * it may, and the legacy `PUT /users-srv/user/{sub}` does not exist (404). 'legacy-only': the
   * documented path answers the recorded 401 body, the legacy one (inheaden/cidaasutils
   * UpdateUserProfileInternally) takes it.
   */
  adminUpdate: 'user-srv' | 'legacy-only';
  /**
   * How cidaas's brute-force block shows: 'status' sets userStatus BLOCKED (documented as
   * system-managed and set by the brute-force protection: guides/.../user-status); 'list': the
   * status stays as it was, the sub is only on the fraud block list (documented:
   * openapi/4.0.6/fds/post-unblock) and sign-in is refused like a wrong password until unblocked.
   * Which of the two cidaas does: unknown.
   */
  bruteForceBlock: 'status' | 'list';
  /**
   * Whether the tenant has fraud detection at all (unknown). false: `POST /fraud-detection-srv/unblock`
   * is no call (404), and no brute-force block arises (the block list is fraud detection's; inferred
   * from the FDS docs, which keep the blocks).
   */
  fraudDetection: boolean;
  /**
   * Registration fields the tenant requires: missing → 417 + 507 "<field> cannot be null"
   * (recorded). Which fields: the tenant's registration setup.
   */
  requiredRegistrationFields: string[];
  /**
   * How reset accept answers a success: the JSON envelope `{reseted:true}` (recorded, the JS SDK's
   * "older" variant), a 302 to a hosted page, or a 200 HTML page (newer cidaas, unknown form).
   */
  resetAcceptAnswer: 'json' | 'redirect' | 'html';
  /**
   * cidaas's own brute-force blocking (documented as configurable): the N-th consecutive failure
   * blocks; 0 = off (the tenant's setting).
   */
  blockAfterFailures: number;
  /**
   * The right password of a user whose e-mail is not verified, where the tenant requires it.
   * 'precheck' (documented: docs.cidaas.com guides/authentication-authorisation/prechecks/
   * communication-verification, guides/4.0.3/hosted-pages/initiate-verification-page): cidaas's
   * pre-check sends the person to the client's hosted page `verification_init`; which parameters it
   * appends is not public, the double appends those documented for `login_success` (requestId,
   * track_id, sub). 'login-error': back to the login page with `error=email_not_verified`, the
   * embedded provider's answer, seen at no cidaas.
   */
  verificationAtSignIn: 'precheck' | 'login-error';
  /**
   * The webhook body. 'documented': the one body cidaas documents (docs.cidaas.com
   * cidaas-id-validator/id-validator/prerequisites/webhook) `{eventtype, createTime, client_id,
   * tenantKey, actorId, metaData, objectId, objectType}`, no id, no timestamp, no sub, no e-mail
   * ("no critical and personal data is provided with a webhook call", openapi/webhooks/webhooks-api);
   * which of its fields name the user of a login event is unknown (here actorId and objectId, with
   * objectType 'USER'). 'with-id': `{id, eventtype, timestamp, client_id, sub}`, the embedded
   * provider's body (provider-protocol.md), seen at no cidaas.
   */
  webhookBody: 'documented' | 'with-id';
  /**
   * Where the webhook's API key goes, under the configured name (WebhookTarget.apiKeyHeader):
   * documented as the operator's choice, `apikey_placement` 'header' or 'query'
   * (Cidaas/terraform-provider-cidaas docs/resources/webhook.md).
   */
  webhookKeyPlacement: 'header' | 'query';
  /**
   * The pauses before the retries of a delivery that was not answered 200. Documented: up to 3 more
   * attempts, after 1, 5 and 10 minutes (docs.cidaas.com openapi/webhooks/webhooks-api;
   * guides/activity-management/webhook-management), i.e. [60_000, 300_000, 600_000]. The default
   * [20, 40, 60] is that schedule SCALED DOWN so that a test can see all of them.
   */
  webhookRetryPausesMs: number[];
  /** Delay before each webhook is sent, ms (0 = right after the answer). When cidaas sends: unknown. */
  webhookDelayMs: number;
}

// The defaults are the documented answers where there are any, and otherwise the shapes that ask the
// most of the client (no sub from the existence check, the array right in `data`).
export const DEFAULT_VARIANTS: CidaasDoubleVariants = {
  userNotFound: '204',
  existenceCarriesSub: false,
  profileShape: 'nested',
  searchAnswer: 'data',
  adminUpdate: 'user-srv',
  bruteForceBlock: 'status',
  fraudDetection: true,
  requiredRegistrationFields: [],
  resetAcceptAnswer: 'json',
  blockAfterFailures: 0,
  verificationAtSignIn: 'precheck',
  webhookBody: 'documented',
  webhookKeyPlacement: 'header',
  // Scaled down from the documented 1, 5 and 10 minutes so that a test can see all of them.
  webhookRetryPausesMs: [20, 40, 60],
  webhookDelayMs: 0,
};

export interface DoubleClient {
  clientId: string;
  /** The operator-configured hosted login page, e.g. 'http://portal.test/login?subdomain=demo'. */
  hostedPageUrl: string;
  /** The operator-configured hosted page `verification_init`; the login page when not set. */
  verificationPageUrl?: string;
  redirectUris: string[];
}

export interface WebhookTarget {
  url: string;
  /**
   * The name the key is sent under (terraform `apikey_placeholder`, e.g. `X-API-Key`): a header, or a
   * query parameter when the variant webhookKeyPlacement is 'query'.
   */
  apiKeyHeader: string;
  apiKey: string;
}

export interface CidaasDoubleOptions {
  /** The admin client (client credentials). */
  clientCredentials: { clientId: string; clientSecret: string };
  /** Relying-party clients; at least one (an expired login goes back to the first one's page). */
  clients: DoubleClient[];
  variants?: Partial<CidaasDoubleVariants>;
  /** tenantinfo/basic, the webhook's `tenantKey`, the reset success page `https://<key>.cidaas.example/…`. */
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
  /** Holds back the webhooks not yet sent until the returned function is called (see WebhookSender.hold). */
  holdWebhooks(): () => void;
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
