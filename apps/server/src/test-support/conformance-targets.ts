import { ProviderClient } from '../provider-client/provider-client';
import type { SignInClient } from '../provider-client/sign-in-requests';
import {
  type CidaasDouble,
  type CidaasDoubleVariants,
  startCidaasDouble,
} from './cidaas-double/cidaas-double';
import { TEST_ADMIN_CLIENT } from './embedded-provider';
import { sharedProvider } from './shared-provider';

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
  close(): Promise<void>;
}

const DEMO_SIGN_IN = { clientId: 'property-portal-demo', redirectUri: 'http://localhost:8082/callback' };

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
  blockAfterFailures: { ownCase: 'bruteForceBlock() of every double run sets it for its block' },
  webhookBody: {
    notAClientCall: 'the server receives webhooks (routes/cidaas-webhook, the double’s webhooks.test.ts)',
  },
  webhookKeyPlacement: { notAClientCall: 'the server receives webhooks (the double’s webhooks.test.ts)' },
  webhookRetryPausesMs: { notAClientCall: 'the server receives webhooks (the double’s webhooks.test.ts)' },
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

/** The recorded-cidaas double, in one variant of what cidaas leaves unknown. */
export async function doubleTarget(
  variants: Partial<CidaasDoubleVariants> = {},
): Promise<ConformanceTarget & { double: CidaasDouble }> {
  const double = await startCidaasDouble({
    clientCredentials: TEST_ADMIN_CLIENT,
    clients: [
      {
        clientId: DEMO_SIGN_IN.clientId,
        hostedPageUrl: 'http://portal.test/login?subdomain=demo',
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

export function isRealCidaasConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return REAL_CIDAAS_VARIABLES.every((name) => Boolean(env[name]));
}

/** A real cidaas tenant; its reset e-mails go to real mailboxes, so reset links cannot be read. */
export async function realCidaasTarget(env: NodeJS.ProcessEnv = process.env): Promise<ConformanceTarget> {
  const signInClient = {
    clientId: env.CIDAAS_SIGN_IN_CLIENT_ID!,
    redirectUri: env.CIDAAS_SIGN_IN_REDIRECT_URI!,
  };
  const client = new ProviderClient({
    baseUrl: env.CIDAAS_BASE_URL!,
    clientId: env.CIDAAS_CLIENT_ID!,
    clientSecret: env.CIDAAS_CLIENT_SECRET!,
    timeoutMs: 15_000,
  });
  const mailCatcher = env[REAL_CIDAAS_MAIL_CATCHER_VARIABLE];
  return {
    client,
    signInClient,
    signsIn: true,
    ...(mailCatcher ? { resetLink: (email: string) => caughtResetLink(mailCatcher, email) } : {}),
    // Recorded: an unknown request id is answered like an expired one (10001).
    expiredRequestId: async () => '00000000-0000-4000-8000-000000000000',
    close: async () => undefined,
  };
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
