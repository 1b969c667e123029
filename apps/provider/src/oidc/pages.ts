import { createHash } from 'node:crypto';
import { escapeHtml } from '@concierge/contracts';
import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';

// The few pages oidc-provider itself renders. Plain and self-contained: no web fonts or third-party
// requests (the defaults load Google Fonts), and the id_token_hint in the logout URL never leaves as
// a Referer.

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}';
const AUTO_SUBMIT = "document.getElementById('op.logoutForm').submit();";

function page(ctx: KoaContextWithOIDC, title: string, body: string, script?: string): void {
  const scriptSrc = script ? `'sha256-${createHash('sha256').update(script).digest('base64')}'` : "'none'";
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${scriptSrc}; style-src 'unsafe-inline'; frame-ancestors 'none'`,
  );
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}${script ? `<script>${script}</script>` : ''}</body>
</html>`;
}

/**
 * RP-initiated logout. With a valid id_token_hint (oidc-provider has verified it by now) the relying
 * party has proven the sign-out request is its own, so the form submits itself: no "do you want to sign
 * out?" page (provider-protocol.md). Without a hint a stray link must not sign anybody out silently,
 * so the user confirms with one button.
 */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const formWithLogout = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
  if (ctx.oidc.entities.IdTokenHint) {
    page(
      ctx,
      'Signing out',
      `${formWithLogout}<noscript><button type="submit" form="op.logoutForm">Sign out</button></noscript>`,
      AUTO_SUBMIT,
    );
    return;
  }
  page(
    ctx,
    'Sign out',
    `<h1>Sign out</h1>${formWithLogout}<button type="submit" form="op.logoutForm" autofocus>Sign out</button>`,
  );
}

/** Shown only when the relying party gave no post_logout_redirect_uri. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  page(ctx, 'Signed out', '<h1>Signed out</h1><p>You have been signed out. You can close this window.</p>');
}

export async function renderError(ctx: KoaContextWithOIDC, out: ErrorOut): Promise<void> {
  const description = out.error_description ? `<p>${escapeHtml(out.error_description)}</p>` : '';
  page(
    ctx,
    'Sign-in error',
    `<h1>Something went wrong</h1><p><code>${escapeHtml(out.error)}</code></p>${description}`,
  );
}
