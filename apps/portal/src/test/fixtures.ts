import type { PortalTenant, RuntimeConfig } from '@concierge/contracts';

export const testConfig: RuntimeConfig = {
  env: 'dev',
  cidaasBaseUrl: 'http://provider.test',
  restApiBaseUrl: 'http://portal.test',
  propertyPortalClientId: 'property-portal-demo',
  activationLinkLifetimeMinutes: 72 * 60,
  resetLinkLifetimeMinutes: 30,
};

export const testTenant: PortalTenant = {
  subdomain: 'demo',
  isRequested: true,
  environment: 'dev',
  displayName: 'Demo Immobilien AG',
  portalUrl: 'http://customer.test',
  clientId: 'property-portal-demo',
  loginRedirectUri: 'http://customer.test/callback',
  flags: {
    hideRegisterLoginLink: false,
    skipFreshRequestIdRedirect: false,
    useSpecialLogo: false,
    registrationEnabled: true,
    inviteEnabled: true,
  },
  design: {
    subdomain: 'demo',
    displayName: 'Demo Immobilien AG',
    primaryColor: '#1864ab',
    primaryShades: [
      '#e7f5ff',
      '#d0ebff',
      '#a5d8ff',
      '#74c0fc',
      '#4dabf7',
      '#339af0',
      '#228be6',
      '#1c7ed6',
      '#1971c2',
      '#1864ab',
    ],
    primaryShade: 9,
    primaryContrastText: '#ffffff',
    linkColor: '#1864ab',
    borderColor: '#7e97ab',
    focusRingColor: '#1864ab',
    themePreset: 'default',
    logoUrl: '/logo/brand.jpg?subdomain=demo',
    stylesheetUrl: null,
  },
};
