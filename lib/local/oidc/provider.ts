import Provider, { errors, type ClientMetadata, type Configuration } from 'oidc-provider';
import type { LocalAccounts } from '#lib/local/oidc/local-users';
import { errorPage, PAGE_CSP, signOutPage } from '#lib/local/oidc/pages';
import { memorySessionStore } from '#lib/local/oidc/session-store';
import type { ProviderKeys } from '#lib/local/oidc/signing-keys';

/** The dashboard's client id, as `config.json` names it. */
export const DASHBOARD_CLIENT_ID = 'gatehouse-dashboard';

/** Where the sign-in page lives under the issuer (interactions.ts serves it). */
export const INTERACTION_PATH = '/interaction';

/** Seconds an access token for the API lives. */
const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Seconds a sign-in to the provider lasts (while the process runs: sessions live in memory). */
const SESSION_TTL_SECONDS = 14 * 24 * 3600;

export interface OidcProviderOptions {
  /** `http://127.0.0.1:<port>/oidc`. */
  issuer: string;
  /** The resource indicator (and `aud`) of the API's access tokens: `<origin>/v1`. */
  apiResource: string;
  accounts: LocalAccounts;
  keys: ProviderKeys;
  /** Public clients (authorization code + PKCE): the dashboard, and in tests others. */
  clients: string[];
  /** Where the dashboard may be opened: `http://127.0.0.1:<port>` and `http://localhost:<port>`. */
  origins: string[];
}

/** A public client whose redirect URIs are the dashboard's routes on each of `origins`. */
function publicClient(clientId: string, origins: string[]): ClientMetadata {
  return {
    client_id: clientId,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: origins.map((origin) => `${origin}/callback`),
    post_logout_redirect_uris: origins.map((origin) => `${origin}/`),
  };
}

/**
 * The embedded OpenID provider of `npm start` (oidc-provider, a certified implementation):
 * authorization code with PKCE (S256 required) for public clients, access tokens for the API as
 * RS256 JWTs (RFC 9068, with `client_id`, as Cognito's carry it), ID tokens and userinfo with the
 * email. Sign-in and consent are our own pages (interactions.ts), not the library's dev ones.
 */
export function createOidcProvider(options: OidcProviderOptions): Provider {
  const { accounts, apiResource } = options;
  const configuration: Configuration = {
    clients: options.clients.map((clientId) => publicClient(clientId, options.origins)),
    // The dashboard's token and userinfo calls come from the origins of its redirect URIs.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    jwks: options.keys.jwks as Configuration['jwks'],
    cookies: { keys: options.keys.cookieKeys },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The dashboard reads who signed in from the ID token: its claims are not only for userinfo.
    conformIdTokenClaims: false,
    interactions: { url: (_ctx, interaction) => `${new URL(options.issuer).pathname}${INTERACTION_PATH}/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const claims = accounts.claims(sub);
      return claims ? { accountId: sub, claims: () => claims } : undefined;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.set('Content-Security-Policy', PAGE_CSP);
          ctx.type = 'html';
          ctx.body = signOutPage(form);
        },
      },
      resourceIndicators: {
        enabled: true,
        // Every authorization is for the API; the token endpoint hands out its token, not userinfo's.
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== apiResource) throw new errors.InvalidTarget();
          return { scope: 'openid email profile', accessTokenFormat: 'jwt', accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    adapter: memorySessionStore(),
    ttl: { AccessToken: ACCESS_TOKEN_TTL_SECONDS, AuthorizationCode: 60, IdToken: ACCESS_TOKEN_TTL_SECONDS, Interaction: 3600, Session: SESSION_TTL_SECONDS, Grant: SESSION_TTL_SECONDS, RefreshToken: SESSION_TTL_SECONDS },
    renderError: (ctx, out) => {
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.type = 'html';
      ctx.body = errorPage(`${out.error_description ?? out.error}.`);
    },
  };
  return new Provider(options.issuer, configuration);
}
