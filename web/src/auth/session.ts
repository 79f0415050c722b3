import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { RuntimeConfig } from '../app/runtime-config';

/** Where to come back to after signing in, carried through the provider in the OIDC `state`. */
interface ReturnState {
  returnTo: string;
}

let manager: UserManager | undefined;
let logoutUrl: string | undefined;

/** Creates the one UserManager of the app (authorization code + PKCE S256, the oidc-client-ts default). */
export function configureSession(config: RuntimeConfig): void {
  const origin = window.location.origin;
  manager = new UserManager({
    authority: config.oidc.issuer,
    client_id: config.oidc.clientId,
    scope: config.oidc.scope,
    redirect_uri: `${origin}/callback`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    // A tab's session ends with the tab; nothing long-lived sits in localStorage.
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    automaticSilentRenew: false,
  });
  logoutUrl = config.oidc.logoutUrl;
}

function session(): UserManager {
  if (!manager) throw new Error('Sign-in is not configured yet.');
  return manager;
}

/** The signed-in person's access token, or undefined when nobody is signed in or it expired. */
export async function accessToken(): Promise<string | undefined> {
  const user = await session().getUser();
  return user && !user.expired ? user.access_token : undefined;
}

/** Sends the browser to the provider's sign-in page; it comes back to `returnTo`. */
export async function signIn(returnTo = window.location.pathname + window.location.search): Promise<void> {
  const state: ReturnState = { returnTo };
  await session().signinRedirect({ state });
}

/** Completes the sign-in on /callback; answers the path to go back to. */
export async function completeSignIn(): Promise<string> {
  const user = await session().signinRedirectCallback();
  const state = user.state as ReturnState | undefined;
  // Only a path of this app, never another origin.
  return state?.returnTo?.startsWith('/') && !state.returnTo.startsWith('//') ? state.returnTo : '/';
}

/** Forgets the session here and ends it at the provider (its logout URL when the config names one). */
export async function signOut(): Promise<void> {
  if (logoutUrl) {
    await session().removeUser();
    window.location.assign(logoutUrl);
    return;
  }
  await session()
    .signoutRedirect()
    .catch(async () => {
      // A provider without an end-session endpoint: the local session is all there is.
      await session().removeUser();
      window.location.assign('/');
    });
}
