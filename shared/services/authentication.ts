import { fetchUserInfo, verifyAccessToken } from '#shared/adapters/oidc/openid-issuer';
import { invalidAccessToken, looksLikeJwt, verifiedEmailOf, type TrustedIssuer } from '#shared/domain/access-token';
import { bearerToken } from '#shared/domain/api-key';
import { systemClock, type Clock } from '#shared/domain/clock';
import { normaliseEmail } from '#shared/domain/member';
import { NO_TENANT, type Caller } from '#shared/domain/roles';
import { getOptionalStringFromEnv } from '#shared/config/env';
import { authenticate as authenticateApiKey } from '#shared/services/api-keys';
import { hasInvitations } from '#shared/services/invitations';
import { memberOfIdentity } from '#shared/services/members';

/**
 * The issuer whose access tokens the API accepts (GATEHOUSE_OIDC_ISSUER, GATEHOUSE_OIDC_CLIENT_ID),
 * read per request: the local runtime sets them once it listens. Unset: no token is accepted.
 */
export function trustedIssuer(): TrustedIssuer | undefined {
  const issuer = getOptionalStringFromEnv('GATEHOUSE_OIDC_ISSUER');
  const clientId = getOptionalStringFromEnv('GATEHOUSE_OIDC_CLIENT_ID');
  return issuer && clientId ? { issuer, clientId } : undefined;
}

/**
 * A signed-in person's access token → their tenant, `user` principal and role: the token verified
 * against the issuer's keys, its identity resolved to a member (bound at the first sign-in by the
 * verified email the issuer's userinfo gives). A person of no tenant with pending invitations is an
 * `invitee` of no tenant (NO_TENANT). Neither, or any failure: 401.
 */
async function authenticatePerson(token: string, clock: Clock): Promise<Caller> {
  const trusted = trustedIssuer();
  if (!trusted) throw invalidAccessToken();
  const sub = await verifyAccessToken(token, trusted, clock.now());
  let profile: Promise<{ email: string; name?: string }> | undefined;
  const learnProfile = () => (profile ??= (async () => verifiedEmailOf(await fetchUserInfo(token, trusted), sub))());
  const member = await memberOfIdentity({ issuer: trusted.issuer, sub }, learnProfile);
  if (member) return { tenantId: member.tenant_id, principal: { type: 'user', id: member.user_id, name: member.name ?? member.email }, role: member.role };
  // No tenant's member, but invited: they may see and answer their invitations, nothing else.
  const { email } = await learnProfile();
  if (await hasInvitations(email)) return { tenantId: NO_TENANT, principal: { type: 'user', id: sub, name: normaliseEmail(email) }, role: 'invitee' };
  throw invalidAccessToken();
}

/**
 * Resolves an `Authorization` header to its caller, or throws UnauthorizedError: a JWT is a
 * person's access token, anything else an API key. The API's authorizer calls this, and an open
 * event stream calls it again to re-check its caller (stream-caller-recheck.ts), so a stream
 * stops for whatever the authorizer would now refuse.
 */
export async function authenticate(authorization: string | undefined, clock: Clock = systemClock): Promise<Caller> {
  const token = bearerToken(authorization);
  if (token && looksLikeJwt(token)) return authenticatePerson(token, clock);
  return authenticateApiKey(authorization, clock);
}
