import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as authorizer } from '#functions/auth/authorize';
import { memberRepository } from '#shared/adapters/dynamodb/member-repository';
import type { Caller } from '#shared/domain/roles';
import { authenticate } from '#shared/services/authentication';
import { acceptInvitation } from '#shared/services/invitations';
import { addMember, ensureLocalMember, listMembers, removeMember } from '#shared/services/members';
import { NO_TENANT } from '#shared/domain/roles';
import { lambdaContext } from '#lib/local/handler-loader';
import type { LocalUser } from '#lib/local/oidc/local-users';
import { startOidcServer, type OidcServer } from '../support/oidc-server';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { signIn, signInFlow } from '../support/sign-in';

/**
 * The API's authorizer with real access tokens of the local OpenID provider, obtained through
 * the whole authorization-code + PKCE flow over HTTP: a member's token resolves to their tenant,
 * user and role; an expired one, one for another client, one of another issuer, a tampered one,
 * and a removed member's are 401.
 */
const tenant = uniqueTenant('people');
const users: LocalUser[] = [
  { email: 'ada@example.com', password: 'ada-secret', tenantId: tenant, role: 'admin' },
  { email: 'ben@example.com', password: 'ben-secret', tenantId: tenant, role: 'viewer' },
  { email: 'cy@example.com', password: 'cy-secret', tenantId: tenant, role: 'operator' },
  { email: 'stranger@example.com', password: 'stranger-secret', tenantId: tenant, role: 'viewer' },
];
const bearer = (token: string) => `Bearer ${token}`;
const admin: Caller = { tenantId: tenant, principal: { type: 'api_key', id: 'key_test_admin' }, role: 'admin' };

let provider: OidcServer;
let impostor: OidcServer;

async function authorize(token: string): Promise<APIGatewayAuthorizerResult['context'] | 'Unauthorized'> {
  const event = { type: 'REQUEST', methodArn: 'arn:aws:execute-api:local:000000000000:local/v1/GET/me', headers: { Authorization: bearer(token) } } as unknown as APIGatewayRequestAuthorizerEvent;
  try {
    return ((await authorizer(event, lambdaContext('authorize', 10) as never)) as APIGatewayAuthorizerResult).context;
  } catch (error) {
    return (error as Error).message === 'Unauthorized' ? 'Unauthorized' : Promise.reject(error);
  }
}

describe('the authorizer with access tokens of the local OpenID provider', () => {
  beforeAll(async () => {
    await provisionForTest('oidc-authorizer');
    provider = await startOidcServer(users, { extraClients: ['another-client'] });
    // Another issuer signing with the very same key: only `iss` tells its tokens apart.
    impostor = await startOidcServer(users, { keys: provider.keys });
    Object.assign(process.env, { GATEHOUSE_OIDC_ISSUER: provider.issuer, GATEHOUSE_OIDC_CLIENT_ID: 'gatehouse-dashboard' });
    for (const user of users.slice(0, 3)) await ensureLocalMember(user);
  });

  afterAll(async () => {
    await provider?.stop();
    await impostor?.stop();
  });

  it('resolves a member’s token to their tenant, user and role, and marks them active at the first sign-in', async () => {
    const token = await signIn(provider.origin, 'Ada@Example.com', 'ada-secret');

    const context = await authorize(token);

    const ada = (await listMembers(tenant, { limit: 10 })).members.find((member) => member.email === 'ada@example.com')!;
    expect(context).toMatchObject({ tenant_id: tenant, principal_type: 'user', principal_id: ada.user_id, role: 'admin' });
    expect(ada).toMatchObject({ status: 'active', joined_at: expect.any(String) });
    expect(await authenticate(bearer(await signIn(provider.origin, 'ben@example.com', 'ben-secret')))).toMatchObject({ tenantId: tenant, principal: { type: 'user' }, role: 'viewer' });
  });

  it('follows the member’s role as it is now, not as it was at sign-in', async () => {
    const token = await signIn(provider.origin, 'cy@example.com', 'cy-secret');
    expect(await authorize(token)).toMatchObject({ role: 'operator' });
    const cy = (await listMembers(tenant, { limit: 10 })).members.find((member) => member.email === 'cy@example.com')!;

    await memberRepository.setRole(cy, 'approver');

    expect(await authorize(token)).toMatchObject({ role: 'approver' });
  });

  it('refuses a wrong password with the error in words, and issues no code', async () => {
    const refused = await signInFlow(provider.origin, 'ada@example.com', 'not-her-password');

    expect(refused.refusedPage).toContain('The email or password is wrong');
    expect(refused.refusedPage).toMatch(/<label for="email">Email<\/label>[\s\S]*<label for="password">Password<\/label>[\s\S]*>Sign in<\/button>/);
  });

  it('refuses an expired token', async () => {
    const token = await signIn(provider.origin, 'ada@example.com', 'ada-secret');
    const inTwoHours = { now: () => new Date(Date.now() + 2 * 3600_000) };

    await expect(authenticate(bearer(token), inTwoHours)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticate(bearer(token))).resolves.toMatchObject({ tenantId: tenant });
  });

  it('refuses a token issued to another client (audience), and an ID token', async () => {
    const other = await signIn(provider.origin, 'ada@example.com', 'ada-secret', { clientId: 'another-client' });
    const { idToken } = await signInFlow(provider.origin, 'ada@example.com', 'ada-secret');

    expect(await authorize(other)).toBe('Unauthorized');
    expect(await authorize(idToken)).toBe('Unauthorized');
  });

  it('refuses a token of another issuer, even one signed with the same key', async () => {
    const foreign = await signIn(impostor.origin, 'ada@example.com', 'ada-secret');

    expect(await authorize(foreign)).toBe('Unauthorized');
  });

  it('refuses a token whose payload or signature was altered', async () => {
    const [header, payload, signature] = (await signIn(provider.origin, 'ada@example.com', 'ada-secret')).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const altered = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400 })).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;

    expect(await authorize(`${header}.${altered}.${signature}`)).toBe('Unauthorized');
    expect(await authorize(`${header}.${payload}.${flipped}`)).toBe('Unauthorized');
  });

  it('refuses a person who is not a member, makes an invited one an invitee of no tenant until they accept, and refuses a member once removed', async () => {
    const stranger = await signIn(provider.origin, 'stranger@example.com', 'stranger-secret');
    expect(await authorize(stranger)).toBe('Unauthorized');

    const invited = await addMember(admin, { email: 'stranger@example.com', role: 'operator' });
    const invitee = await authorize(stranger);
    expect(invitee).toMatchObject({ tenant_id: NO_TENANT, principal_type: 'user', principal_name: 'stranger@example.com', role: 'invitee' });
    await acceptInvitation({ tenantId: NO_TENANT, principal: { type: 'user', id: 'stranger', name: 'stranger@example.com' }, role: 'invitee' }, admin.tenantId);
    expect(await authorize(stranger)).toMatchObject({ tenant_id: admin.tenantId, principal_id: invited.user_id, role: 'operator' });
    await removeMember(admin, invited.user_id);

    expect(await authorize(stranger)).toBe('Unauthorized');
  });

  it('refuses every token when no issuer is configured', async () => {
    const token = await signIn(provider.origin, 'ada@example.com', 'ada-secret');
    const saved = process.env.GATEHOUSE_OIDC_ISSUER;
    delete process.env.GATEHOUSE_OIDC_ISSUER;
    try {
      expect(await authorize(token)).toBe('Unauthorized');
    } finally {
      process.env.GATEHOUSE_OIDC_ISSUER = saved;
    }
  });
});
