import { createHash, randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { urls } from './urls';

/** From the customer's portal to the sign-in page, as a tenant starts. */
export async function startSignIn(page: Page) {
  await page.goto(urls.propertyPortal);
  await page.getByTestId('sign-in').click();
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
}

/** Fills the login form and submits it (works in every language: fields by name). */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/** An authorization request for a client, as a relying party would send it (PKCE S256). */
export function authorizationUrl(clientId: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: `${urls.propertyPortal}/callback`,
    response_type: 'code',
    scope: 'email openid profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
  });
  return `${urls.provider}/authz-srv/authz?${query}`;
}

export async function expectSignedIn(page: Page, email: string) {
  await page.waitForURL(
    (url) => url.href.startsWith(urls.propertyPortal) && !url.pathname.startsWith('/callback'),
  );
  await expect(page.getByTestId('user-email')).toHaveText(email);
}

/** Waits until React has hydrated the page (no waiting for the network to go quiet). */
export async function waitForHydration(page: Page) {
  // The page's own part hydrates after the root (its chunk, inside a Suspense boundary): its <main>
  // is React's once React has taken it over.
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    return main !== null && Object.keys(main).some((key) => key.startsWith('__reactFiber'));
  });
}
