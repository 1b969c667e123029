import { describe, expect, it } from 'vitest';
import { readPropertyPortalConfig } from './config';

describe('readPropertyPortalConfig', () => {
  it('falls back to the local topology', () => {
    expect(readPropertyPortalConfig({})).toMatchObject({
      providerUrl: 'http://localhost:8081',
      clientId: 'property-portal-demo',
      publicUrl: 'http://localhost:8082',
      port: 8082,
      host: '127.0.0.1',
    });
  });

  it('reads the environment and drops trailing slashes from URLs', () => {
    expect(
      readPropertyPortalConfig({
        PROVIDER_URL: 'https://id.example.ch/',
        PROPERTY_PORTAL_CLIENT_ID: 'other-client',
        PROPERTY_PORTAL_URL: 'https://portal.example.ch/',
        PROPERTY_PORTAL_PORT: '9000',
        PROPERTY_PORTAL_HOST: '0.0.0.0',
      }),
    ).toMatchObject({
      providerUrl: 'https://id.example.ch',
      clientId: 'other-client',
      publicUrl: 'https://portal.example.ch',
      port: 9000,
      host: '0.0.0.0',
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => readPropertyPortalConfig({ PROVIDER_URL: 'localhost:8081' })).toThrow(/PROVIDER_URL/);
    expect(() => readPropertyPortalConfig({ PROPERTY_PORTAL_PORT: 'eighty' })).toThrow(
      /PROPERTY_PORTAL_PORT/,
    );
  });
});
