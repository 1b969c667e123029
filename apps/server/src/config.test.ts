import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, REQUIRED_OUTSIDE_DEVELOPMENT } from './config';

/** Everything a deployment must set (docs/operations.md, "Configuration"), with strong secrets. */
const DEPLOYMENT = {
  DATABASE_URL: 'postgres://concierge@db.internal/concierge',
  PORTAL_URL: 'https://login.example.ch',
  PROVIDER_URL: 'https://example.cidaas.eu',
  APP_ENV: 'prod',
  SMTP_URL: 'smtps://relay.example.ch',
  MAIL_FROM: '"Example" <no-reply@example.ch>',
  PROVIDER_ADMIN_CLIENT_SECRET: 'p6Vq-2xTz9Lr4mWd',
  WEBHOOK_API_KEY: 'K8s!fJ3q-Zr7uYn2',
  FORM_SECRET: 'w3Rt-8bQn!5yHs2k',
  RESET_LINK_LIFETIME_MINUTES: '1440',
} as const;

describe('loadConfig', () => {
  it('runs on the embedded defaults with CONCIERGE_DEV=true', () => {
    const config = loadConfig({ CONCIERGE_DEV: 'true' });
    expect(config.port).toBe(8080);
    expect(config.runtime).toEqual({
      env: 'dev',
      cidaasBaseUrl: 'http://localhost:8081',
      restApiBaseUrl: 'http://localhost:8080',
      propertyPortalClientId: 'property-portal-demo',
      activationLinkLifetimeMinutes: 72 * 60,
      resetLinkLifetimeMinutes: 60,
    });
    expect(config.adminApiTokens).toEqual(['concierge-dev-admin-token']);
    expect(config.mail.smtpUrl).toBe('smtp://localhost:1025');
  });

  it('gives the pages the link lifetimes the configuration sets (ACTIVATION_LINK_TTL_HOURS, RESET_LINK_LIFETIME_MINUTES)', () => {
    const config = loadConfig({
      CONCIERGE_DEV: 'true',
      ACTIVATION_LINK_TTL_HOURS: '48',
      RESET_LINK_LIFETIME_MINUTES: '60',
    });
    expect(config.activationLinkTtlHours).toBe(48);
    expect(config.runtime).toMatchObject({
      activationLinkLifetimeMinutes: 48 * 60,
      resetLinkLifetimeMinutes: 60,
    });
    expect(() => loadConfig({ CONCIERGE_DEV: 'true', RESET_LINK_LIFETIME_MINUTES: '0' })).toThrow(
      /RESET_LINK_LIFETIME_MINUTES/,
    );
  });

  it('lists every variable a deployment requires in docs/operations.md', () => {
    const operations = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    for (const name of REQUIRED_OUTSIDE_DEVELOPMENT)
      expect(operations).toMatch(new RegExp(`\`${name}\`.*required`));
  });

  // The review's findings: no NODE_ENV, NODE_ENV=prod or Production with APP_ENV=prod all ran on
  // the public admin token and webhook key and on localhost URLs.
  it.each([
    ['no environment at all', {}],
    ['APP_ENV=prod without NODE_ENV', { APP_ENV: 'prod' }],
    ['NODE_ENV=prod', { NODE_ENV: 'prod', APP_ENV: 'prod' }],
    ['NODE_ENV=Production', { NODE_ENV: 'Production' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['CONCIERGE_DEV=false', { CONCIERGE_DEV: 'false' }],
  ])('refuses to start on development defaults with %s', (_label, env) => {
    expect(() => loadConfig(env)).toThrow(/PORTAL_URL: required[\s\S]*WEBHOOK_API_KEY: required/);
  });

  it.each(REQUIRED_OUTSIDE_DEVELOPMENT)('refuses to start without %s, naming it', (name) => {
    expect(() => loadConfig({ ...DEPLOYMENT, [name]: undefined })).toThrow(
      new RegExp(`\\n  ${name}: required`),
    );
    expect(() => loadConfig({ ...DEPLOYMENT, [name]: '' })).toThrow(new RegExp(`\\n  ${name}: required`));
  });

  it.each([
    ['WEBHOOK_API_KEY', 'concierge-dev-webhook-key', /public development value/],
    ['ADMIN_API_TOKEN', 'concierge-dev-admin-token', /public development value/],
    ['PROVIDER_ADMIN_CLIENT_SECRET', 'concierge-dev-admin-client-secret', /public development value/],
    ['ADMIN_API_TOKEN', 'a'.repeat(16), /at least 8 different characters/],
    ['WEBHOOK_API_KEY', 'ab'.repeat(12), /at least 8 different characters/],
    ['PROVIDER_ADMIN_CLIENT_SECRET', 'Short-1x', /at least 16 characters/],
  ])('refuses a weak %s (%s)', (name, value, reason) => {
    expect(() => loadConfig({ ...DEPLOYMENT, [name]: value })).toThrow(
      new RegExp(`${name}: .*${reason.source}`),
    );
  });

  it('starts with everything a deployment sets, and without the admin API unless its token is set', () => {
    const config = loadConfig(DEPLOYMENT);
    expect(config).toMatchObject({
      isProduction: true,
      portalUrl: 'https://login.example.ch',
      providerUrl: 'https://example.cidaas.eu',
      providerAdmin: { clientSecret: DEPLOYMENT.PROVIDER_ADMIN_CLIENT_SECRET },
      webhook: { apiKeys: [DEPLOYMENT.WEBHOOK_API_KEY], header: 'x-api-key' },
      mail: { smtpUrl: 'smtps://relay.example.ch', from: DEPLOYMENT.MAIL_FROM },
      adminApiTokens: [],
      runtime: { resetLinkLifetimeMinutes: 1440 },
    });
    expect(config.runtime.env).toBe('prod');
    const token = 'Qm7-vT2x!Lp9sRw4';
    expect(loadConfig({ ...DEPLOYMENT, ADMIN_API_TOKEN: token }).adminApiTokens).toEqual([token]);
  });

  it('takes the old and the new value of the webhook key and the admin token during a rotation, each strong', () => {
    const [old, next] = ['K8s!fJ3q-Zr7uYn2', 'Lm4#tW9x-Qe2vBn8'];
    const rotating = loadConfig({
      ...DEPLOYMENT,
      WEBHOOK_API_KEY: `${old}, ${next}`,
      ADMIN_API_TOKEN: `${next},${old}`,
    });
    expect(rotating.webhook.apiKeys).toEqual([old, next]);
    expect(rotating.adminApiTokens).toEqual([next, old]);
    for (const name of ['WEBHOOK_API_KEY', 'ADMIN_API_TOKEN']) {
      const refused = (value: string, reason: RegExp) =>
        expect(() => loadConfig({ ...DEPLOYMENT, [name]: value }), value).toThrow(
          new RegExp(`\\n  ${name}: ${reason.source}`),
        );
      refused(`${old},Short-1x`, /must be at least 16 characters/);
      refused(`${old},`, /must be at least 16 characters/);
      refused(`${old},concierge-dev-webhook-key`, /is a public development value/);
    }
    // The length rule holds for each value in development too.
    expect(() =>
      loadConfig({ CONCIERGE_DEV: 'true', WEBHOOK_API_KEY: 'concierge-dev-webhook-key,short' }),
    ).toThrow(/WEBHOOK_API_KEY: each must be at least 16 characters/);
  });

  it('traces only with an OTLP endpoint: the traces’ own as it is, else the general one’s /v1/traces', () => {
    expect(loadConfig({ ...DEPLOYMENT, OTEL_SERVICE_NAME: 'named' }).tracing).toBeUndefined();
    expect(
      loadConfig({ ...DEPLOYMENT, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing,
    ).toEqual({
      tracesEndpoint: 'http://collector:4318/v1/traces',
      serviceName: 'concierge-server',
    });
    expect(
      loadConfig({
        ...DEPLOYMENT,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.ch/ingest',
        OTEL_SERVICE_NAME: 'login-zurich',
      }).tracing,
    ).toEqual({ tracesEndpoint: 'https://traces.example.ch/ingest', serviceName: 'login-zurich' });
    expect(() => loadConfig({ ...DEPLOYMENT, OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http\(s\) URL/,
    );
  });

  it('refuses a development switch it does not understand', () => {
    expect(() => loadConfig({ ...DEPLOYMENT, CONCIERGE_DEV: 'yes' })).toThrow(
      /CONCIERGE_DEV: must be true or false/,
    );
  });

  it('names every bad variable', () => {
    expect(() =>
      loadConfig({ CONCIERGE_DEV: 'true', PORT: 'eighty', PROVIDER_URL: 'not a url', APP_ENV: 'staging' }),
    ).toThrow(/PORT[\s\S]*PROVIDER_URL[\s\S]*APP_ENV/);
  });
});
