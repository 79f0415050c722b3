import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyAccessTokenWith } from '#shared/adapters/oidc/openid-issuer';
import { looksLikeJwt, verifiedEmailOf } from '#shared/domain/access-token';
import { generateApiKey } from '#shared/domain/api-key';

/** The checks of a person's access token, on tokens signed here with a key of a local key set. */
const trusted = { issuer: 'https://issuer.example/pool', clientId: 'dashboard-client' };
const now = new Date('2030-06-01T12:00:00Z');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

let signingKey: CryptoKey;
let otherKey: CryptoKey;
let keys: ReturnType<typeof createLocalJWKSet>;

async function token(claims: JWTPayload, options: { key?: CryptoKey; alg?: string; kid?: string } = {}): Promise<string> {
  return new SignJWT({ client_id: trusted.clientId, token_use: 'access', ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? 'k1' })
    .setIssuer((claims.iss as string) ?? trusted.issuer)
    .setSubject((claims.sub as string) ?? 'person-1')
    .setIssuedAt(epoch(now) - 60)
    .setExpirationTime((claims.exp as number) ?? epoch(now) + 3600)
    .sign(options.key ?? signingKey);
}

const verify = (jwt: string) => verifyAccessTokenWith(keys, jwt, trusted, now);

describe('access token checks', () => {
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    otherKey = (await generateKeyPair('RS256')).privateKey;
    const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' };
    keys = createLocalJWKSet({ keys: [publicJwk] });
  });

  it('accept a token of the issuer for the client, and give its subject', async () => {
    expect(await verify(await token({}))).toBe('person-1');
    // Cognito's access tokens say token_use; the local provider's do not.
    expect(await verify(await token({ token_use: undefined }))).toBe('person-1');
  });

  it('refuse a token past its expiry, beyond a small clock tolerance', async () => {
    await expect(verify(await token({ exp: epoch(now) - 5 }))).resolves.toBe('person-1');
    await expect(verify(await token({ exp: epoch(now) - 60 }))).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuse a token not valid yet', async () => {
    await expect(verify(await token({ nbf: epoch(now) + 300 }))).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuse another issuer, another client, an ID token, and a token without a subject', async () => {
    await expect(verify(await token({ iss: 'https://issuer.example/other' }))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify(await token({ client_id: 'someone-else' }))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify(await token({ client_id: undefined, aud: trusted.clientId }))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify(await token({ token_use: 'id' }))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify(await token({ sub: '' }))).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuse a token signed by another key, with another algorithm, or unsigned', async () => {
    await expect(verify(await token({}, { key: otherKey }))).rejects.toMatchObject({ code: 'unauthorized' });
    const hmac = await token({}, { key: new TextEncoder().encode('a-shared-secret-of-enough-length!') as never, alg: 'HS256' });
    await expect(verify(hmac)).rejects.toMatchObject({ code: 'unauthorized' });
    const [, payload] = (await token({})).split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    await expect(verify(unsigned)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('tell a JWT from an API key', async () => {
    expect(looksLikeJwt(await token({}))).toBe(true);
    expect(looksLikeJwt(generateApiKey())).toBe(false);
    expect(looksLikeJwt('key_a')).toBe(false);
    expect(looksLikeJwt('a.b.c')).toBe(false);
  });

  it('take only a verified email from userinfo, of the same subject, lower-cased', () => {
    expect(verifiedEmailOf({ sub: 's', email: 'Ada@Example.COM', email_verified: true, name: ' Ada ' }, 's')).toEqual({ email: 'ada@example.com', name: 'Ada' });
    // Cognito's userinfo answers email_verified as a string.
    expect(verifiedEmailOf({ sub: 's', email: 'ada@example.com', email_verified: 'true' }, 's')).toEqual({ email: 'ada@example.com' });
    expect(() => verifiedEmailOf({ sub: 's', email: 'ada@example.com', email_verified: false }, 's')).toThrow();
    expect(() => verifiedEmailOf({ sub: 's', email: 'ada@example.com' }, 's')).toThrow();
    expect(() => verifiedEmailOf({ sub: 'other', email: 'ada@example.com', email_verified: true }, 's')).toThrow();
  });
});
