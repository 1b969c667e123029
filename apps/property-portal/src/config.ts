import { fileURLToPath } from 'node:url';

export interface PropertyPortalConfig {
  /** The OIDC provider's base URL (the authority). */
  providerUrl: string;
  clientId: string;
  /** This app's own public origin; the redirect URIs registered at the provider are built from it. */
  publicUrl: string;
  /** Folder with the Vite build. */
  distDir: string;
}

export interface ListenConfig {
  port: number;
  host: string;
}

/**
 * The Vite build of the browser app. The same relative path from src/config.ts (tests, tsx) and
 * from the compiled dist/main.js (production): both sit one folder below the app.
 */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute URL, got "${value}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  }
  // Redirect URIs are compared character by character at the provider: no trailing slash to double.
  return value.replace(/\/+$/, '');
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new Error(`${name} must be a port number (0-65535), got "${value}"`);
  }
  return parsed;
}

/**
 * The variables, their defaults and what docs/operations.md says of them: its table is generated
 * from this (`npm run config-tables`, scripts/config-tables.mjs), and readPropertyPortalConfig takes
 * the defaults from here.
 */
export const CONFIGURATION_REFERENCE = {
  variables: {
    PROPERTY_PORTAL_HOST: { description: 'the address it listens on', default: '127.0.0.1' },
    PROPERTY_PORTAL_PORT: { description: 'the port it listens on', default: '8082' },
    PROPERTY_PORTAL_URL: {
      description: 'its own public origin; the redirect URIs registered at the provider are built from it',
      default: 'http://localhost:8082',
    },
    PROVIDER_URL: {
      description: "the OIDC provider's base URL (the authority)",
      default: 'http://localhost:8081',
    },
    PROPERTY_PORTAL_CLIENT_ID: {
      description: 'its client id at the provider',
      default: 'property-portal-demo',
    },
  },
} as const satisfies { variables: Record<string, { description: string; default: string }> };

const defaults = CONFIGURATION_REFERENCE.variables;

export function readPropertyPortalConfig(env: NodeJS.ProcessEnv): PropertyPortalConfig & ListenConfig {
  return {
    providerUrl: url(env, 'PROVIDER_URL', defaults.PROVIDER_URL.default),
    clientId: env.PROPERTY_PORTAL_CLIENT_ID || defaults.PROPERTY_PORTAL_CLIENT_ID.default,
    publicUrl: url(env, 'PROPERTY_PORTAL_URL', defaults.PROPERTY_PORTAL_URL.default),
    distDir: DEFAULT_DIST_DIR,
    port: port(env, 'PROPERTY_PORTAL_PORT', Number(defaults.PROPERTY_PORTAL_PORT.default)),
    host: env.PROPERTY_PORTAL_HOST || defaults.PROPERTY_PORTAL_HOST.default,
  };
}
