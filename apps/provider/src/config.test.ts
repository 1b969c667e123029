import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_RESET_LINK_LIFETIME_MINUTES } from '@concierge/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEV_ADMIN_CLIENT_SECRET,
  DEV_WEBHOOK_API_KEY,
  loadConfig,
  productionRefusal,
} from './config';

/** A development run's configuration (CONCIERGE_DEV=true, as `npm start` and the tests set it). */
const devConfig = (env: NodeJS.ProcessEnv) => loadConfig({ CONCIERGE_DEV: 'true', ...env });

/** The clients files of this file's tests, in one folder removed after them. */
const clientsFolder = mkdtempSync(path.join(tmpdir(), 'provider-clients-'));
afterAll(() => rmSync(clientsFolder, { recursive: true, force: true }));
let clientsFiles = 0;

function clientsFile(content: unknown): string {
  clientsFiles += 1;
  const file = path.join(clientsFolder, `clients-${clientsFiles}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('productionRefusal', () => {
  it('refuses NODE_ENV=production without the explicit override', () => {
    expect(productionRefusal({ NODE_ENV: 'production' })).toMatch(
      /Refusing to start.*PROVIDER_ALLOW_PRODUCTION=true/s,
    );
  });

  it('starts in production only with PROVIDER_ALLOW_PRODUCTION=true', () => {
    expect(productionRefusal({ NODE_ENV: 'production', PROVIDER_ALLOW_PRODUCTION: 'true' })).toBeUndefined();
    expect(productionRefusal({ NODE_ENV: 'production', PROVIDER_ALLOW_PRODUCTION: '1' })).toBeDefined();
  });

  it('never refuses outside production', () => {
    expect(productionRefusal({})).toBeUndefined();
    expect(productionRefusal({ NODE_ENV: 'development' })).toBeUndefined();
  });
});

describe('loadConfig', () => {
  it('has working defaults for a local run', () => {
    const config = devConfig({});
    expect(config).toMatchObject({
      isProduction: false,
      port: 8081,
      host: '127.0.0.1',
      issuer: 'http://localhost:8081',
      portalUrl: 'http://localhost:8080',
      propertyPortalUrl: 'http://localhost:8082',
      adminClient: { clientId: 'concierge-server', clientSecret: DEV_ADMIN_CLIENT_SECRET },
      isDemoSeedEnabled: true,
    });
    const demo = config.clients.find((client) => client.client_id === 'property-portal-demo');
    expect(demo).toMatchObject({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [
        'http://localhost:8082/callback',
        'http://localhost:8082/silent-renew',
        'http://localhost:8082/popup-callback',
      ],
      post_logout_redirect_uris: ['http://localhost:8082/'],
      hosted_page_url: 'http://localhost:8080/login?subdomain=demo',
      subdomain: 'demo',
      required_roles: [],
    });
    expect(demo).not.toHaveProperty('registration_enabled');
    expect(demo).not.toHaveProperty('invite_enabled');
    expect(config.signIn).toEqual({ isVerifiedEmailRequired: true, blockAfterFailures: 0 });
    const admin = config.clients.find((client) => client.client_id === 'concierge-server');
    expect(admin).toMatchObject({
      grant_types: ['client_credentials'],
      client_secret: DEV_ADMIN_CLIENT_SECRET,
    });
  });

  it('reads the environment and treats empty variables as unset', () => {
    const config = devConfig({
      PROVIDER_PORT: '9001',
      PROVIDER_URL: 'https://id.example.com/',
      PORTAL_URL: 'https://login.example.com/',
      PROPERTY_PORTAL_URL: '',
      PROVIDER_SEED_DEMO: 'false',
      PROVIDER_REQUIRE_VERIFIED_EMAIL: 'false',
      PROVIDER_BLOCK_AFTER_FAILURES: '5',
    });
    expect(config).toMatchObject({
      port: 9001,
      issuer: 'https://id.example.com',
      portalUrl: 'https://login.example.com',
      propertyPortalUrl: 'http://localhost:8082',
      isDemoSeedEnabled: false,
      signIn: { isVerifiedEmailRequired: false, blockAfterFailures: 5 },
    });
  });

  it('gives reset links the same lifetime as the server says, unless RESET_LINK_LIFETIME_MINUTES sets another', () => {
    expect(devConfig({}).resetLinkLifetimeMinutes).toBe(DEFAULT_RESET_LINK_LIFETIME_MINUTES);
    expect(devConfig({ RESET_LINK_LIFETIME_MINUTES: '90' }).resetLinkLifetimeMinutes).toBe(90);
    expect(() => devConfig({ RESET_LINK_LIFETIME_MINUTES: '0' })).toThrow(/RESET_LINK_LIFETIME_MINUTES/);
  });

  it('has login limits by default and reads them from the environment', () => {
    expect(devConfig({}).loginLimits).toEqual({
      perIp: 100,
      windowSeconds: 900,
      perRequest: 10,
      alarmPerMinute: 100,
    });
    const config = devConfig({
      PROVIDER_LOGIN_LIMIT_PER_IP: '30',
      PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS: '600',
      PROVIDER_LOGIN_LIMIT_PER_REQUEST: '0',
      PROVIDER_LOGIN_ALARM_PER_MINUTE: '50',
    });
    expect(config.loginLimits).toEqual({ perIp: 30, windowSeconds: 600, perRequest: 0, alarmPerMinute: 50 });
    for (const name of [
      'PROVIDER_LOGIN_LIMIT_PER_IP',
      'PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS',
      'PROVIDER_LOGIN_LIMIT_PER_REQUEST',
      'PROVIDER_LOGIN_ALARM_PER_MINUTE',
    ]) {
      expect(() => devConfig({ [name]: '-1' })).toThrow(new RegExp(name));
    }
    expect(() => devConfig({ PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS: '0' })).toThrow(
      /PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS/,
    );
  });

  it('names the variable that is wrong', () => {
    expect(() => devConfig({ PROVIDER_PORT: 'eighty' })).toThrow(/PROVIDER_PORT/);
    expect(() => devConfig({ PROVIDER_URL: 'http://id.example.com/some/path' })).toThrow(/PROVIDER_URL/);
    expect(() => devConfig({ PORTAL_URL: 'javascript:alert(1)' })).toThrow(/PORTAL_URL/);
    expect(() => devConfig({ PROVIDER_SEED_DEMO: 'maybe' })).toThrow(/PROVIDER_SEED_DEMO/);
    expect(() => devConfig({ PROVIDER_REQUIRE_VERIFIED_EMAIL: 'maybe' })).toThrow(
      /PROVIDER_REQUIRE_VERIFIED_EMAIL/,
    );
    for (const value of ['-1', '2.5', 'three']) {
      expect(() => devConfig({ PROVIDER_BLOCK_AFTER_FAILURES: value })).toThrow(
        /PROVIDER_BLOCK_AFTER_FAILURES/,
      );
    }
  });

  // NODE_ENV=Production, prod or none at all ran on the public secrets (issue 26): only the
  // development switch gives them.
  it.each([
    ['no NODE_ENV', {}],
    ['NODE_ENV=Production', { NODE_ENV: 'Production' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ])('requires both secrets outside development, with %s', (_label, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /PROVIDER_ADMIN_CLIENT_SECRET: required[\s\S]*PROVIDER_WEBHOOK_API_KEY: required/,
    );
  });

  it('refuses weak or public secrets outside development, and takes strong ones', () => {
    const secrets = {
      PROVIDER_ADMIN_CLIENT_SECRET: 'a-long-production-secret',
      PROVIDER_WEBHOOK_API_KEY: 'a-long-production-webhook-key',
    };
    expect(() => loadConfig({ ...secrets, PROVIDER_WEBHOOK_API_KEY: DEV_WEBHOOK_API_KEY })).toThrow(
      /PROVIDER_WEBHOOK_API_KEY: is a public development value/,
    );
    expect(() => loadConfig({ ...secrets, PROVIDER_ADMIN_CLIENT_SECRET: 'x'.repeat(20) })).toThrow(
      /PROVIDER_ADMIN_CLIENT_SECRET: must have at least 8 different characters/,
    );
    expect(() => loadConfig({ ...secrets, PROVIDER_WEBHOOK_API_KEY: 'short' })).toThrow(
      /PROVIDER_WEBHOOK_API_KEY/,
    );
    const config = loadConfig({ NODE_ENV: 'production', ...secrets });
    expect(config.adminClient.clientSecret).toBe('a-long-production-secret');
    expect(config.webhook.apiKey).toBe('a-long-production-webhook-key');
  });

  it('sends webhooks to the portal host and mail to the local catcher by default', () => {
    expect(devConfig({ PORTAL_URL: 'https://login.example.com/' })).toMatchObject({
      webhook: {
        url: 'https://login.example.com/api/cidaas-webhook/events',
        apiKey: DEV_WEBHOOK_API_KEY,
        apiKeyHeader: 'X-API-Key',
      },
      mail: { smtpUrl: 'smtp://localhost:1025', from: '"Concierge" <no-reply@concierge.test>' },
    });
    expect(() => devConfig({ PROVIDER_WEBHOOK_API_KEY_HEADER: 'X-Key: injected' })).toThrow(
      /PROVIDER_WEBHOOK_API_KEY_HEADER/,
    );
    expect(() => devConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
  });

  it('validates a client brand colour', () => {
    const file = clientsFile([
      {
        client_id: 'x',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['https://x.example.com/cb'],
        brand_color: 'red',
      },
    ]);
    expect(() => devConfig({ PROVIDER_CLIENTS_FILE: file })).toThrow(/brand_color/);
  });

  it('adds clients from PROVIDER_CLIENTS_FILE, replacing a default with the same id', () => {
    const file = clientsFile([
      {
        client_id: 'acme-portal',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: ['https://acme.example.com/callback'],
        hosted_page_url: 'https://login.example.com/login?subdomain=acme',
        subdomain: 'acme',
        required_roles: ['tenant'],
      },
      {
        client_id: 'property-portal-demo',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['https://demo.example.com/callback'],
      },
    ]);
    const config = devConfig({ PROVIDER_CLIENTS_FILE: file });
    expect(config.clients.map((client) => client.client_id)).toEqual([
      'concierge-server',
      'concierge-console',
      'acme-portal',
      'property-portal-demo',
    ]);
    expect(config.clients.find((client) => client.client_id === 'acme-portal')).toMatchObject({
      hosted_page_url: 'https://login.example.com/login?subdomain=acme',
      subdomain: 'acme',
      required_roles: ['tenant'],
    });
    const replaced = config.clients.find((client) => client.client_id === 'property-portal-demo');
    expect(replaced?.hosted_page_url).toBeUndefined();
  });

  it('stops on a bad clients file with the field named', () => {
    const missingSecret = clientsFile([{ client_id: 'x', redirect_uris: ['https://x.example.com/cb'] }]);
    expect(() => devConfig({ PROVIDER_CLIENTS_FILE: missingSecret })).toThrow(/client_secret/);
    const typo = clientsFile([
      { client_id: 'x', token_endpoint_auth_method: 'none', redirect_uri: ['https://x.example.com/cb'] },
    ]);
    expect(() => devConfig({ PROVIDER_CLIENTS_FILE: typo })).toThrow(/redirect_uri/);
    expect(() => devConfig({ PROVIDER_CLIENTS_FILE: clientsFile('{not json') })).toThrow(
      /could not be read as JSON/,
    );
    const twice = clientsFile([
      { client_id: 'x', token_endpoint_auth_method: 'none', redirect_uris: ['https://x.example.com/cb'] },
      { client_id: 'x', token_endpoint_auth_method: 'none', redirect_uris: ['https://x.example.com/cb'] },
    ]);
    expect(() => devConfig({ PROVIDER_CLIENTS_FILE: twice })).toThrow(/twice/);
    const badPage = clientsFile([
      {
        client_id: 'x',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['https://x.example.com/cb'],
        hosted_page_url: 'javascript:alert(1)',
      },
    ]);
    expect(() => devConfig({ PROVIDER_CLIENTS_FILE: badPage })).toThrow(/hosted_page_url/);
  });

  it('refuses the registration flags, which cidaas clients do not have', () => {
    for (const flag of ['registration_enabled', 'invite_enabled']) {
      const file = clientsFile([
        {
          client_id: 'x',
          token_endpoint_auth_method: 'none',
          redirect_uris: ['https://x.example.com/cb'],
          [flag]: true,
        },
      ]);
      expect(() => devConfig({ PROVIDER_CLIENTS_FILE: file })).toThrow(new RegExp(flag));
    }
  });
});
