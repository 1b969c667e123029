import type { PropertyPortalConfig } from './config';

/**
 * What the browser app reads from /config.json before anything else. Everything that differs between
 * installations is here, so one build runs everywhere.
 */
export interface PropertyPortalRuntimeConfig {
  authority: string;
  clientId: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  silentRedirectUri: string;
  popupRedirectUri: string;
}

export function runtimeConfigOf(config: PropertyPortalConfig): PropertyPortalRuntimeConfig {
  return {
    authority: config.providerUrl,
    clientId: config.clientId,
    redirectUri: `${config.publicUrl}/callback`,
    postLogoutRedirectUri: `${config.publicUrl}/`,
    silentRedirectUri: `${config.publicUrl}/silent-renew`,
    popupRedirectUri: `${config.publicUrl}/popup-callback`,
  };
}
