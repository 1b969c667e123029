import { createOidcClient, type OidcClient, type User } from '@concierge/oidc-client';
import './style.css';
import { loadRuntimeConfig } from './load-runtime-config';
import { pickLanguage, TEXTS } from './texts';
import { errorView, loadingView, signedInView, signedOutView } from './views';

const language = pickLanguage(navigator.language);
const t = TEXTS[language];
document.documentElement.lang = language;
document.title = t.documentTitle;
const root = document.getElementById('app')!;

function show(view: HTMLElement) {
  root.replaceChildren(view);
  root.removeAttribute('aria-busy');
}

async function currentUser(client: OidcClient): Promise<User | null> {
  const user = await client.getUser();
  if (!user?.expired) return user;
  // A session left over from an earlier visit: renew it if a refresh token allows, else start afresh.
  try {
    return await client.renew();
  } catch {
    await client.removeUser();
    return null;
  }
}

async function showHome(client: OidcClient) {
  const user = await currentUser(client);
  show(
    user
      ? signedInView(
          t,
          user,
          () => void act(client.signOut()),
          () => void act(client.renew().then(() => showHome(client))),
        )
      : signedOutView(
          t,
          () => void act(client.signInRedirect()),
          () => void act(client.signInPopup().then(() => showHome(client))),
        ),
  );
}

async function act(navigation: Promise<void>) {
  try {
    await navigation;
  } catch (error) {
    show(errorView(t, t.actionError, error));
  }
}

/** Keeps the start page in step with renewals and with a sign-out in another tab (session monitoring). */
function followSession(client: OidcClient) {
  const refreshHome = () => {
    if (window.location.pathname === '/') void showHome(client);
  };
  client.events.addUserLoaded(refreshHome);
  client.events.addUserUnloaded(refreshHome);
  client.events.addUserSignedOut(() => void client.removeUser());
}

const RESTARTED_KEY = 'property-portal.sign-in-restarted';

async function completeSignIn(client: OidcClient) {
  show(loadingView(t.completing));
  try {
    await client.handleSignInCallback();
  } catch (error) {
    // A sign-in this page did not start (the portal asked the provider for a fresh request when a
    // tenant opened its /login directly) carries no state of ours. The provider session it made lets
    // a sign-in of our own finish at once; try that once per tab, never in a loop.
    if (/no matching state/i.test(String(error)) && !sessionStorage.getItem(RESTARTED_KEY)) {
      sessionStorage.setItem(RESTARTED_KEY, '1');
      await act(client.signInRedirect());
      return;
    }
    show(errorView(t, t.callbackError, error));
    return;
  }
  sessionStorage.removeItem(RESTARTED_KEY);
  // Drops the code from the address bar and the history before showing the start page.
  window.history.replaceState(null, '', '/');
  await showHome(client);
}

async function start() {
  let client: OidcClient;
  try {
    client = createOidcClient(await loadRuntimeConfig());
  } catch (error) {
    show(errorView(t, t.startError, error));
    return;
  }

  switch (window.location.pathname) {
    case '/popup-callback':
      // Runs in the pop-up window: hands the answer to the opener, which closes the pop-up.
      await client.handlePopupCallback();
      return;
    case '/silent-renew':
      // Runs inside oidc-client-ts' hidden iframe: hand the answer to the parent, show nothing.
      await client.handleSilentRenewCallback();
      return;
    case '/login':
      // The sign-in portal sends people here as "the customer's /login host": sign in at once.
      show(loadingView(t.redirecting));
      await act(client.signInRedirect());
      return;
    case '/callback':
      followSession(client);
      await completeSignIn(client);
      return;
    default:
      followSession(client);
      await showHome(client);
  }
}

void start();
