import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalSecretCipher } from '#shared/adapters/crypto/local-secret-cipher';
import { SecretDecryptionError } from '#shared/domain/secret-cipher';

const context = { tenant_id: 'ten_1', subscription_id: 'sub_1' };

/** Flips one bit in the given dot-separated part of a ciphertext. */
function flipBit(ciphertext: string, part: number): string {
  const parts = ciphertext.split('.');
  const bytes = Buffer.from(parts[part], 'base64url');
  bytes[0] ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('LocalSecretCipher', () => {
  const cipher = new LocalSecretCipher(randomBytes(32));

  it('round-trips a secret', async () => {
    const ciphertext = await cipher.encrypt('whsec_c2VjcmV0 ✓', context);

    expect(ciphertext).not.toContain('whsec_');
    expect(await cipher.decrypt(ciphertext, context)).toBe('whsec_c2VjcmV0 ✓');
  });

  it('round-trips any string under any context', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.dictionary(fc.string(), fc.string()), async (plaintext, anyContext) => {
        expect(await cipher.decrypt(await cipher.encrypt(plaintext, anyContext), anyContext)).toBe(plaintext);
      }),
    );
  });

  it('uses a fresh nonce each time, so equal secrets do not look equal at rest', async () => {
    const [a, b] = await Promise.all([cipher.encrypt('same', context), cipher.encrypt('same', context)]);

    expect(a).not.toBe(b);
  });

  it('does not care about the order of context keys', async () => {
    const ciphertext = await cipher.encrypt('secret', { a: '1', b: '2' });

    expect(await cipher.decrypt(ciphertext, { b: '2', a: '1' })).toBe('secret');
  });

  it.each([
    ['the nonce', 1],
    ['the ciphertext', 2],
    ['the tag', 3],
  ])('detects tampering with %s', async (_, part) => {
    const ciphertext = await cipher.encrypt('secret', context);

    await expect(cipher.decrypt(flipBit(ciphertext, part), context)).rejects.toThrow(SecretDecryptionError);
  });

  it.each<[string, Record<string, string>]>([
    ['another subscription', { ...context, subscription_id: 'sub_2' }],
    ['another tenant', { ...context, tenant_id: 'ten_2' }],
    ['a missing key', { tenant_id: 'ten_1' }],
    ['an extra key', { ...context, purpose: 'x' }],
    ['an empty context', {}],
    ['keys and values shifted across the separator', { 'tenant_id.ten_1': '', subscription_id: 'sub_1' }],
  ])('refuses to decrypt under %s', async (_, otherContext) => {
    const ciphertext = await cipher.encrypt('secret', context);

    await expect(cipher.decrypt(ciphertext, otherContext)).rejects.toThrow(SecretDecryptionError);
  });

  it('refuses a ciphertext made with another key', async () => {
    const ciphertext = await new LocalSecretCipher(randomBytes(32)).encrypt('secret', context);

    await expect(cipher.decrypt(ciphertext, context)).rejects.toThrow(SecretDecryptionError);
  });

  it.each(['', 'plaintext', 'lgcm1.a.b', 'lgcm2.AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA', 'lgcm1.AA.AA.AA'])('refuses malformed ciphertext %j', async (bad) => {
    await expect(cipher.decrypt(bad, context)).rejects.toThrow(SecretDecryptionError);
  });

  it.each([0, 16, 31, 33, 64])('needs a 32-byte key, not %i bytes', (length) => {
    expect(() => new LocalSecretCipher(randomBytes(length))).toThrow(RangeError);
  });
});
