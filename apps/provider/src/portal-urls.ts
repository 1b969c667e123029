export interface LoginPageParams {
  requestId?: string;
  subdomain?: string;
  error?: string;
  error_description?: string;
  username?: string;
}

/** `{portal}/login?…` with only the parameters that have a value, in a stable order. */
export function portalLoginUrl(portalUrl: string, params: LoginPageParams): string {
  const url = new URL(`${portalUrl}/login`);
  for (const key of ['requestId', 'subdomain', 'error', 'error_description', 'username'] as const) {
    const value = params[key];
    if (value) url.searchParams.set(key, value);
  }
  return url.href;
}
