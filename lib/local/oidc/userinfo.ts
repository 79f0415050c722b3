import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import type { LocalAccounts } from '#lib/local/oidc/local-users';
import type { ProviderKeys } from '#lib/local/oidc/signing-keys';

/** The public half of an RSA JWK: what the provider's jwks_uri publishes. */
function publicJwk({ kty, n, e, kid, alg, use }: JWK): JWK {
  return { kty, n, e, kid, alg, use };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

/**
 * The userinfo endpoint for the API's access tokens. oidc-provider answers userinfo only for
 * tokens without an audience, while ours are JWTs for the API; Cognito's userinfo accepts its
 * access tokens. Answering ours the same way keeps one code path in the API for both issuers (it
 * learns a new person's verified email here). Other tokens go on to the provider.
 */
export function userinfoHandler(issuer: string, keys: ProviderKeys, accounts: LocalAccounts) {
  const keySet = createLocalJWKSet({ keys: keys.jwks.keys.map(publicJwk) });
  return async (token: string, response: ServerResponse): Promise<void> => {
    const refuse = () => sendJson(response, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    try {
      const { payload } = await jwtVerify(token, keySet, { issuer, algorithms: ['RS256'], typ: 'at+jwt' });
      const claims = typeof payload.sub === 'string' ? accounts.claims(payload.sub) : undefined;
      if (!claims) return refuse();
      sendJson(response, 200, claims);
    } catch {
      refuse();
    }
  };
}

/** The Bearer token of a request, when it is a JWT (three base64url parts). */
export function bearerJwt(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}
