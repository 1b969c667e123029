import { CONSOLE_PATH, type Language } from '@concierge/contracts';

// Every address the console links or posts to: the server handles each (apps/server's console routes).

const segment = encodeURIComponent;

export const paths = {
  home: CONSOLE_PATH,
  signIn: (language: Language) => `${CONSOLE_PATH}/sign-in?lang=${language}`,
  signOut: `${CONSOLE_PATH}/sign-out`,
  tenant: (tenant: string) => `${CONSOLE_PATH}/t/${segment(tenant)}`,
  batches: (tenant: string) => `${paths.tenant(tenant)}/batches`,
  batchNew: (tenant: string) => `${paths.tenant(tenant)}/batches/new`,
  batch: (tenant: string, id: string) => `${paths.batches(tenant)}/${segment(id)}`,
  batchLetters: (tenant: string, id: string) => `${paths.batch(tenant, id)}/letters.pdf`,
  batchExport: (tenant: string, id: string) => `${paths.batch(tenant, id)}/export.csv`,
  batchRevoke: (tenant: string, id: string) => `${paths.batch(tenant, id)}/revoke`,
  codesRevoke: (tenant: string) => `${paths.tenant(tenant)}/codes/revoke`,
  invitations: (tenant: string) => `${paths.tenant(tenant)}/invitations`,
  invitationResend: (tenant: string, id: string) => `${paths.invitations(tenant)}/${segment(id)}/resend`,
  invitationRevoke: (tenant: string, id: string) => `${paths.invitations(tenant)}/${segment(id)}/revoke`,
  brand: (tenant: string) => `${paths.tenant(tenant)}/brand`,
  brandPublish: (tenant: string) => `${paths.brand(tenant)}/publish`,
  brandDiscard: (tenant: string) => `${paths.brand(tenant)}/discard`,
  audit: (query: { tenant?: string | undefined; before?: number | undefined } = {}) => {
    const search = new URLSearchParams();
    if (query.tenant) search.set('tenant', query.tenant);
    if (query.before !== undefined) search.set('before', String(query.before));
    const text = search.toString();
    return text ? `${CONSOLE_PATH}/audit?${text}` : `${CONSOLE_PATH}/audit`;
  },
};

/**
 * The page's own address in another language. Only a path below the console is kept: the state's
 * URL is what the browser asked for, and `//elsewhere.example/` would read as another site.
 */
export function withLanguage(url: string, language: Language): string {
  const base = 'http://console.invalid';
  const parsed = new URL(url, base);
  const isOwn =
    parsed.origin === base &&
    (parsed.pathname === CONSOLE_PATH || parsed.pathname.startsWith(`${CONSOLE_PATH}/`));
  const target = isOwn ? parsed : new URL(CONSOLE_PATH, base);
  target.searchParams.set('lang', language);
  return `${target.pathname}?${target.searchParams}`;
}
