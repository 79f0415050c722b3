import { UnauthorizedError } from '#shared/domain/errors';
import { normaliseEmail } from '#shared/domain/member';

/**
 * People's access tokens: JWTs of the OpenID issuer the service trusts (Cognito on AWS, the
 * embedded provider locally). The adapter checks the signature against the issuer's JWKS and the
 * registered claims (`iss`, `exp`, `nbf`); these are the checks that are ours.
 */

/** Seconds of clock skew allowed between the issuer and the service when checking `exp` and `nbf`. */
export const ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS = 10;

/** What a token must be issued for: the issuer and the dashboard's client. */
export interface TrustedIssuer {
  issuer: string;
  clientId: string;
}

/** The one refusal of every token check: it says nothing about which check failed. */
export function invalidAccessToken(): UnauthorizedError {
  return new UnauthorizedError('The access token is invalid or expired, or it was not issued for this service. Sign in again.');
}

/**
 * True for a bearer token shaped as a JWS (three base64url parts, a JSON header naming `alg`):
 * those are people's access tokens; everything else is looked up as an API key.
 */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && typeof (header as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}

/**
 * The subject of a verified token's claims, after our checks: issued to the dashboard's client
 * (`client_id`: Cognito's access tokens carry no `aud` for the client, and an ID token, whose
 * `aud` is the client, carries no `client_id`), an access token when it says (`token_use`), and a
 * subject. Any failure is 401.
 */
export function subjectOfAccessToken(claims: Record<string, unknown>, trusted: Pick<TrustedIssuer, 'clientId'>): string {
  if (claims.client_id !== trusted.clientId) throw invalidAccessToken();
  if (claims.token_use !== undefined && claims.token_use !== 'access') throw invalidAccessToken();
  if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 255) throw invalidAccessToken();
  return claims.sub;
}

/** The verified email a userinfo answer vouches for (`email_verified` true; Cognito says "true"), lower-cased. */
export function verifiedEmailOf(userinfo: Record<string, unknown>, sub: string): { email: string; name?: string } {
  const verified = userinfo.email_verified === true || userinfo.email_verified === 'true';
  if (userinfo.sub !== sub || typeof userinfo.email !== 'string' || !verified) throw invalidAccessToken();
  const name = typeof userinfo.name === 'string' && userinfo.name.trim() ? userinfo.name.trim().slice(0, 200) : undefined;
  return { email: normaliseEmail(userinfo.email), ...(name ? { name } : {}) };
}
