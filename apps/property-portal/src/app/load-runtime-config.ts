import type { PropertyPortalRuntimeConfig } from '../runtime-config';

const KEYS = [
  'authority',
  'clientId',
  'redirectUri',
  'postLogoutRedirectUri',
  'silentRedirectUri',
  'popupRedirectUri',
] as const;

function isRuntimeConfig(value: unknown): value is PropertyPortalRuntimeConfig {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return KEYS.every((key) => typeof record[key] === 'string' && record[key] !== '');
}

/** The first call of the page: nothing about the provider is baked into the bundle. */
export async function loadRuntimeConfig(): Promise<PropertyPortalRuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-store', signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  const config: unknown = await response.json();
  if (!isRuntimeConfig(config)) throw new Error(`/config.json lacks one of ${KEYS.join(', ')}`);
  return config;
}
