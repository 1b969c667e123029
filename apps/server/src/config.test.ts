import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('runs with no environment at all on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.runtime).toEqual({
      env: 'dev',
      cidaasBaseUrl: 'http://localhost:8081',
      restApiBaseUrl: 'http://localhost:8080',
      propertyPortalClientId: 'property-portal-demo',
    });
  });

  it('requires the provider and webhook secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /PROVIDER_ADMIN_CLIENT_SECRET[\s\S]*WEBHOOK_API_KEY/,
    );
    const production = loadConfig({
      NODE_ENV: 'production',
      PROVIDER_ADMIN_CLIENT_SECRET: 'a-production-secret',
      WEBHOOK_API_KEY: 'a-production-webhook-key',
    });
    expect(production.providerAdmin.clientSecret).toBe('a-production-secret');
    expect(production.webhook).toEqual({ apiKey: 'a-production-webhook-key', header: 'x-api-key' });
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', PROVIDER_URL: 'not a url', APP_ENV: 'staging' })).toThrow(
      /PORT[\s\S]*PROVIDER_URL[\s\S]*APP_ENV/,
    );
  });
});
