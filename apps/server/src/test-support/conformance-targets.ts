import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAL_CIDAAS_VARIANTS_FILE, realCidaasLines } from '../../../../scripts/test-report.mjs';
import { ProviderClient } from '../provider-client/provider-client';
import type { SignInClient } from '../provider-client/sign-in-requests';
import {
  type CidaasDouble,
  type CidaasDoubleVariants,
  startCidaasDouble,
} from './cidaas-double/cidaas-double';
import { DEFAULT_VARIANTS } from './cidaas-double/types';
import { TEST_ADMIN_CLIENT } from './embedded-provider';
import { sharedProvider } from './shared-provider';
import {
  type AdminCall,
  adminCaller,
  type Findings,
  REVEALED_VARIANTS,
  type RevealedVariant,
} from './variant-probes';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** One provider the conformance suite holds the server's provider client against. */
export interface ConformanceTarget {
  client: ProviderClient;
  signInClient: SignInClient;
  /** The ids of the reset link the provider e-mailed last to this address; undefined where unreadable. */
  resetLink?(email: string): Promise<{ rprq: string; exchangeId: string } | undefined>;
  /**
   * Whether its sign-in client gets tokens through the hosted-page login (code flow with PKCE,
   * sign-in-tokens.ts); the double answers the login but has no token endpoint for it.
   */
  signsIn?: boolean;
  /** Request ids that are no longer valid at this provider. */
  expiredRequestId(): Promise<string>;
  /**
   * Makes the provider's own brute-force protection block this user (wrong passwords at its login);
   * false when this provider or its variant has none. Undefined where the suite cannot provoke one.
   */
  bruteForceBlock?(email: string): Promise<boolean>;
  /** Whether the hosted-page login lets this user in with this password now. */
  canSignIn?(email: string, password: string): Promise<boolean>;
  /** The admin API called directly, for the probes of what cidaas leaves open (variant-probes.ts). */
  admin: AdminCall;
  /** The sign-in client's hosted login page where the suite knows it: a failed sign-in goes back there. */
  hostedPageUrl?: string;
  /** How the suite receives this provider's webhooks, or why it cannot. */
  webhooks: WebhookRoute | { unavailable: string };
  /** The double's variants, where this is the double: what the probes must find. */
  knownVariants?(): CidaasDoubleVariants;
  /** What the suite found out here (a real tenant's: written at close for npm test's closing output). */
  findings?: Findings;
  /** Told of every user the suite registers (a real tenant's are deleted at close). */
  registered?(sub: string): void;
  /** The domain of the suite's throw-away addresses; default example.ch. */
  emailDomain?: string;
  close(): Promise<void>;
}

/** Where the provider's webhooks reach the suite's receiver (webhook-receiver.ts). */
export interface WebhookRoute {
  /** The receiver's port: the one the operator's tunnel forwards to; 0 for any free one. */
  port: number;
  /** The key the provider sends with every delivery. */
  apiKey: string;
  /** The public address (a tunnel) the tenant delivers to, checked to reach the receiver first. */
  publicUrl?: string;
  /** Points the provider's webhooks at the receiver, where the suite can (the double). */
  deliverTo?(receiverUrl: string): void;
  /** How long the suite waits for a delivery. */
  waitMs: number;
}

const DEMO_SIGN_IN = { clientId: 'property-portal-demo', redirectUri: 'http://localhost:8082/callback' };
/** The demo client's hosted login page at the embedded provider (embedded-provider.ts) and the double. */
const DEMO_HOSTED_PAGE = 'http://portal.test/login?subdomain=demo';

/**
 * The embedded provider in its own process (the run's shared one: every case uses fresh users), its
 * reset e-mails caught by a real SMTP sink.
 */
export async function embeddedTarget(): Promise<ConformanceTarget> {
  const provider = await sharedProvider();
  return {
    client: new ProviderClient({ baseUrl: provider.url, ...TEST_ADMIN_CLIENT }),
    signInClient: DEMO_SIGN_IN,
    signsIn: true,
    admin: adminCaller(provider.url, TEST_ADMIN_CLIENT),
    hostedPageUrl: DEMO_HOSTED_PAGE,
    webhooks: {
      unavailable:
        "the run's shared embedded provider sends its webhooks to a fixed address (shared-provider-setup.ts)",
    },
    async resetLink(email) {
      const mail = await provider.mail.waitFor(email);
      const href = /https?:\/\/\S+password-set\?[^\s"<>)]+/.exec(mail.text)?.[0];
      return href ? resetIdsOf(href.replaceAll('&amp;', '&')) : undefined;
    },
    // The embedded provider's request ids are interaction ids: one it never issued is as good as gone.
    expiredRequestId: async () => 'no-such-interaction-0000',
    // The provider outlives this file (shared-provider-setup.ts stops it).
    close: async () => undefined,
  };
}

/**
 * How the conformance suite covers each variant of the double (types.ts CidaasDoubleVariants names
 * their sources): the values other than the default that the whole suite runs against, one run per
 * value (the defaults are the plain run), or why a variant is not a run of its own. A new variant
 * does not compile until it is placed here.
 */
export const DOUBLE_VARIANT_COVERAGE = {
  userNotFound: ['417', '404'],
  existenceCarriesSub: [true],
  profileShape: ['flat'],
  searchAnswer: ['data.users', 'data.data'],
  adminUpdate: ['legacy-only'],
  bruteForceBlock: ['list'],
  fraudDetection: [false],
  requiredRegistrationFields: { ownCase: 'a registration field the tenant requires is refused with 507' },
  resetAcceptAnswer: { ownCase: 'a reset accept answered with a redirect or a page is an unknown outcome' },
  verificationAtSignIn: {
    notAClientCall: 'the browser follows it (against-recorded-cidaas.test.ts, the verification pre-check)',
  },
  blockAfterFailures: { ownCase: 'bruteForceBlock() of every double run sets it for its block' },
  webhookBody: ['with-id'],
  webhookKeyPlacement: ['query'],
  webhookRetryPausesMs: {
    notAClientCall: 'the server receives webhooks (the double’s own cidaas-double.test.ts)',
  },
  webhookDelayMs: { notAClientCall: 'the server receives webhooks (against-recorded-cidaas.test.ts)' },
} satisfies {
  [K in keyof CidaasDoubleVariants]:
    | readonly CidaasDoubleVariants[K][]
    | { ownCase: string }
    | { notAClientCall: string };
};

/** The runs of the whole suite against the double: its defaults, then each value of DOUBLE_VARIANT_COVERAGE. */
export function doubleVariantRuns(): { name: string; variants: Partial<CidaasDoubleVariants> }[] {
  const runs: { name: string; variants: Partial<CidaasDoubleVariants> }[] = [
    { name: 'defaults (the documented answers)', variants: {} },
  ];
  for (const [key, values] of Object.entries(DOUBLE_VARIANT_COVERAGE)) {
    if (!Array.isArray(values)) continue;
    for (const value of values) {
      runs.push({ name: `${key}: ${JSON.stringify(value)}`, variants: { [key]: value } });
    }
  }
  return runs;
}

/** Each value of a revealed variant the double can answer (its default and the suite's runs), as text. */
export function doubleValuesOf(name: RevealedVariant): string[] {
  const runs: readonly unknown[] = DOUBLE_VARIANT_COVERAGE[name];
  return [String(DEFAULT_VARIANTS[name]), ...runs.map(String)];
}

const DOUBLE_WEBHOOK_KEY = { apiKeyHeader: 'X-API-Key', apiKey: 'conformance-webhook-key' };

/** The recorded-cidaas double, in one variant of what cidaas leaves unknown. */
export async function doubleTarget(
  variants: Partial<CidaasDoubleVariants> = {},
): Promise<ConformanceTarget & { double: CidaasDouble }> {
  const double = await startCidaasDouble({
    clientCredentials: TEST_ADMIN_CLIENT,
    clients: [
      {
        clientId: DEMO_SIGN_IN.clientId,
        hostedPageUrl: DEMO_HOSTED_PAGE,
        redirectUris: [DEMO_SIGN_IN.redirectUri],
      },
    ],
    variants,
  });
  const client = new ProviderClient({ baseUrl: double.url, ...TEST_ADMIN_CLIENT });
  /** Posts the hosted page's login form; answers where the double sent the browser. */
  async function signIn(email: string, password: string): Promise<URL> {
    const requestId = await client.generateRequestId(DEMO_SIGN_IN);
    if (requestId.kind !== 'answer') throw new Error('the double gave no request id');
    const answer = await fetch(`${double.url}/login-srv/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: email,
        password,
        requestId: requestId.data,
        username_type: 'email',
      }),
    });
    return new URL(answer.headers.get('location') ?? '');
  }
  return {
    double,
    client,
    signInClient: DEMO_SIGN_IN,
    admin: adminCaller(double.url, TEST_ADMIN_CLIENT),
    hostedPageUrl: DEMO_HOSTED_PAGE,
    webhooks: {
      port: 0,
      apiKey: DOUBLE_WEBHOOK_KEY.apiKey,
      deliverTo: (url) => double.setWebhook({ url, ...DOUBLE_WEBHOOK_KEY }),
      waitMs: 10_000,
    },
    knownVariants: () => double.variants,
    resetLink: async (email) => double.lastReset(email),
    async bruteForceBlock(email) {
      const before = double.variants.blockAfterFailures;
      double.variants.blockAfterFailures = 3;
      try {
        for (let failure = 0; failure < 3; failure += 1) await signIn(email, 'Wrong-Passw0rd!');
      } finally {
        double.variants.blockAfterFailures = before;
      }
      return double.user(email)?.isFraudBlocked === true;
    },
    async canSignIn(email, password) {
      const target = await signIn(email, password);
      return `${target.origin}${target.pathname}` === DEMO_SIGN_IN.redirectUri;
    },
    async expiredRequestId() {
      const requestId = await client.generateRequestId(DEMO_SIGN_IN);
      if (requestId.kind !== 'answer') throw new Error('the double gave no request id');
      double.expireRequestIds();
      return requestId.data;
    },
    close: () => double.close(),
  };
}

/** The variables that point the suite at a real cidaas tenant. */
export const REAL_CIDAAS_VARIABLES = [
  'CIDAAS_BASE_URL',
  'CIDAAS_CLIENT_ID',
  'CIDAAS_CLIENT_SECRET',
  'CIDAAS_SIGN_IN_CLIENT_ID',
  'CIDAAS_SIGN_IN_REDIRECT_URI',
] as const;

/**
 * Optional: the JSON API of a mail catcher (apps/mail-catcher, `GET /api/messages?to=`) that receives
 * the tenant's e-mails. Without it the tenant's reset e-mails go to real mailboxes, and the cases that
 * need a reset link are skipped.
 */
export const REAL_CIDAAS_MAIL_CATCHER_VARIABLE = 'CIDAAS_MAIL_CATCHER_URL';

/** Optional: the domain of the suite's throw-away addresses at a real tenant (a catch-all test domain). */
export const REAL_CIDAAS_EMAIL_DOMAIN_VARIABLE = 'CIDAAS_EMAIL_DOMAIN';

export function isRealCidaasConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return REAL_CIDAAS_VARIABLES.every((name) => Boolean(env[name]));
}

/**
 * Optional: the tenant's webhook, configured by the operator (docs/cidaas-setup.md, section 9) to the
 * public address CIDAAS_WEBHOOK_URL (a tunnel) that forwards to the suite's receiver on
 * CIDAAS_WEBHOOK_LOCAL_PORT, with the API key CIDAAS_WEBHOOK_API_KEY in a header or the query. Without
 * them the webhook case is skipped by name.
 */
export const REAL_CIDAAS_WEBHOOK_VARIABLES = [
  'CIDAAS_WEBHOOK_URL',
  'CIDAAS_WEBHOOK_API_KEY',
  'CIDAAS_WEBHOOK_LOCAL_PORT',
] as const;

/** cidaas retries a delivery after 1, 5 and 10 minutes; the first attempt comes within seconds. */
const REAL_WEBHOOK_WAIT_MS = 90_000;

/**
 * A real cidaas tenant. Its reset e-mails go to real mailboxes unless a mail catcher receives them;
 * its webhooks reach the suite only through the operator's tunnel. At close it writes what the suite
 * found (REAL_CIDAAS_VARIANTS_FILE, printed by npm test) and deletes every user the suite registered.
 */
export async function realCidaasTarget(env: NodeJS.ProcessEnv = process.env): Promise<ConformanceTarget> {
  const signInClient = {
    clientId: env.CIDAAS_SIGN_IN_CLIENT_ID!,
    redirectUri: env.CIDAAS_SIGN_IN_REDIRECT_URI!,
  };
  const baseUrl = env.CIDAAS_BASE_URL!;
  const credentials = { clientId: env.CIDAAS_CLIENT_ID!, clientSecret: env.CIDAAS_CLIENT_SECRET! };
  const client = new ProviderClient({ baseUrl, ...credentials, timeoutMs: 15_000 });
  const admin = adminCaller(baseUrl, credentials);
  const mailCatcher = env[REAL_CIDAAS_MAIL_CATCHER_VARIABLE];
  const missingWebhook = REAL_CIDAAS_WEBHOOK_VARIABLES.filter((name) => !env[name]);
  const webhooks: ConformanceTarget['webhooks'] =
    missingWebhook.length > 0
      ? { unavailable: `${missingWebhook.join(', ')} not set` }
      : {
          port: Number(env.CIDAAS_WEBHOOK_LOCAL_PORT),
          apiKey: env.CIDAAS_WEBHOOK_API_KEY!,
          publicUrl: env.CIDAAS_WEBHOOK_URL!,
          waitMs: REAL_WEBHOOK_WAIT_MS,
        };
  const findings: Findings = { variants: {}, observed: {} };
  const subs: string[] = [];
  return {
    client,
    signInClient,
    signsIn: true,
    admin,
    webhooks,
    findings,
    registered: (sub) => subs.push(sub),
    ...(env[REAL_CIDAAS_EMAIL_DOMAIN_VARIABLE]
      ? { emailDomain: env[REAL_CIDAAS_EMAIL_DOMAIN_VARIABLE] }
      : {}),
    ...(mailCatcher ? { resetLink: (email: string) => caughtResetLink(mailCatcher, email) } : {}),
    // Recorded: an unknown request id is answered like an expired one (10001).
    expiredRequestId: async () => '00000000-0000-4000-8000-000000000000',
    async close() {
      writeFindings(baseUrl, findings, 'unavailable' in webhooks ? webhooks.unavailable : undefined);
      await deleteUsers(admin, subs);
    },
  };
}

/** Writes what the suite found at the tenant for npm test's closing output, and prints it. */
function writeFindings(baseUrl: string, findings: Findings, webhooksUnavailable: string | undefined) {
  const isWebhook = (name: RevealedVariant) => name.startsWith('webhook');
  const notFound = Object.fromEntries(
    REVEALED_VARIANTS.filter((name) => findings.variants[name] === undefined).map((name) => [
      name,
      findings.observed[name] ??
        (isWebhook(name) && webhooksUnavailable
          ? `no webhook receiver (${webhooksUnavailable})`
          : 'its case did not run or did not finish'),
    ]),
  );
  const variants = Object.fromEntries(
    REVEALED_VARIANTS.filter((name) => findings.variants[name] !== undefined).map((name) => [
      name,
      findings.variants[name]!,
    ]),
  );
  const content = { baseUrl, variants, notFound, observed: findings.observed };
  const file = join(root, REAL_CIDAAS_VARIANTS_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  console.log(realCidaasLines([], content).join('\n'));
}

/**
 * Deletes the users the suite registered at a real tenant, through cidaas's documented admin
 * deletion: `DELETE /users-srv/user/purge/{sub}`, "deletes users by sub using an ANONYMOUS token
 * (client_credentials token) or admin permissions", answered "Accepted" (docs.cidaas.com
 * openapi/3.102.2/users/delete-user; guides/user-management/user-management-flows/user-deletion,
 * "Immediate Deletion"). Only the suite deletes users (the server never does), so the provider client
 * has no such call. A refusal is a warning: those users stay at the tenant.
 */
async function deleteUsers(admin: AdminCall, subs: string[]): Promise<void> {
  const refused: string[] = [];
  for (const sub of subs) {
    const answer = await admin('DELETE', `/users-srv/user/purge/${encodeURIComponent(sub)}`).catch(
      (error: unknown) => ({ status: 0, json: error instanceof Error ? error.message : String(error) }),
    );
    if (answer.status < 200 || answer.status >= 300) refused.push(`${sub} (HTTP ${answer.status})`);
  }
  if (refused.length > 0) {
    console.warn(
      `real cidaas: ${refused.length} of ${subs.length} users the suite registered were not deleted ` +
        `(DELETE /users-srv/user/purge/{sub}); delete them by hand: ${refused.join(', ')}`,
    );
  }
}

/** The reset ids of a link: `rprq` and the exchange id in either spelling (cidaas-facts.md). */
function resetIdsOf(href: string): { rprq: string; exchangeId: string } | undefined {
  if (!URL.canParse(href)) return undefined;
  const query = new URL(href).searchParams;
  const exchangeId = query.get('exchangeId') ?? query.get('exchangeid');
  const rprq = query.get('rprq');
  return exchangeId && rprq ? { rprq, exchangeId } : undefined;
}

/** The newest reset link the mail catcher has for this address, waiting up to a minute for it. */
async function caughtResetLink(
  catcherUrl: string,
  email: string,
): Promise<{ rprq: string; exchangeId: string } | undefined> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(new URL(`/api/messages?to=${encodeURIComponent(email)}`, catcherUrl));
    const messages = response.ok ? ((await response.json()) as { links?: string[] }[]) : [];
    // Newest first (apps/mail-catcher).
    for (const message of messages) {
      for (const link of message.links ?? []) {
        const ids = resetIdsOf(link);
        if (ids) return ids;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return undefined;
}
