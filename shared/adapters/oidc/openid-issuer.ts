import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS, invalidAccessToken, subjectOfAccessToken, type TrustedIssuer } from '#shared/domain/access-token';
import { UnauthorizedError } from '#shared/domain/errors';
import { logger } from '#shared/observability/logger';

/** How long a call to the issuer (discovery, JWKS, userinfo) may take before the request is refused. */
const ISSUER_TIMEOUT_MS = 5_000;

/** What the service reads of the issuer's discovery document. */
interface IssuerMetadata {
  issuer: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

interface IssuerHandle {
  metadata: IssuerMetadata;
  keys: JWTVerifyGetKey;
}

/** Per issuer, for the life of the process (a Lambda's cold start): its metadata and JWKS. */
const issuers = new Map<string, Promise<IssuerHandle>>();

async function discover(issuer: string): Promise<IssuerHandle> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(ISSUER_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const metadata = (await response.json()) as Partial<IssuerMetadata>;
  // RFC 8414: the document must name the issuer it was fetched for.
  if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') throw new Error('discovery document does not match the issuer');
  // jose caches the keys and refetches them (with a cooldown) when a token names an unknown kid.
  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: ISSUER_TIMEOUT_MS });
  return { metadata: metadata as IssuerMetadata, keys };
}

/** The issuer's metadata and keys, fetched once; a failed fetch is tried again by the next request. */
function issuerHandle(issuer: string): Promise<IssuerHandle> {
  let handle = issuers.get(issuer);
  if (!handle) {
    handle = discover(issuer);
    issuers.set(issuer, handle);
    handle.catch(() => issuers.delete(issuer));
  }
  return handle;
}

/**
 * Verifies a token's signature (RS256, a key of `keys`), `iss`, `exp` and `nbf` (with a small
 * clock tolerance), then our own checks (domain/access-token.ts); returns its subject. Every
 * failure is 401 `unauthorized`.
 */
export async function verifyAccessTokenWith(keys: JWTVerifyGetKey, token: string, trusted: TrustedIssuer, now: Date): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: trusted.issuer,
      algorithms: ['RS256'],
      clockTolerance: ACCESS_TOKEN_CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    return subjectOfAccessToken(payload, trusted);
  } catch (error) {
    if (!(error instanceof errors.JOSEError)) throw error;
    // A failure to fetch the keys is the issuer's, not the token's: worth a line in the logs.
    if (error instanceof errors.JWKSTimeout || error.code === 'ERR_JOSE_GENERIC') logger.warn('openid issuer keys unavailable', { error: String(error) });
    throw invalidAccessToken();
  }
}

/** Runs a call to the issuer; its failure (down, slow, a broken answer) refuses the token with 401. */
async function atIssuer<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof UnauthorizedError) throw error;
    logger.warn('openid issuer unreachable', { what, error: String(error) });
    throw invalidAccessToken();
  }
}

/** Verifies a person's access token against the issuer's JWKS (from its discovery document); its subject. */
export async function verifyAccessToken(token: string, trusted: TrustedIssuer, now: Date): Promise<string> {
  const { keys } = await atIssuer('discovery', () => issuerHandle(trusted.issuer));
  return atIssuer('jwks', () => verifyAccessTokenWith(keys, token, trusted, now));
}

/** The issuer's userinfo answer for the token (standard OpenID Connect; Cognito's too). */
export async function fetchUserInfo(token: string, trusted: TrustedIssuer): Promise<Record<string, unknown>> {
  const { metadata } = await atIssuer('discovery', () => issuerHandle(trusted.issuer));
  const endpoint = metadata.userinfo_endpoint;
  if (!endpoint) throw invalidAccessToken();
  return atIssuer('userinfo', async () => {
    const response = await fetch(endpoint, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, signal: AbortSignal.timeout(ISSUER_TIMEOUT_MS) });
    if (response.status === 401 || response.status === 403) throw invalidAccessToken();
    if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  });
}
