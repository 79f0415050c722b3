import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh module graph per test: `secretCipher` is memoised per process. */
async function freshModules() {
  vi.resetModules();
  const [{ secretCipher }, { KmsSecretCipher }, { LocalSecretCipher }] = await Promise.all([
    import('#shared/adapters/crypto/secret-cipher'),
    import('#shared/adapters/crypto/kms-secret-cipher'),
    import('#shared/adapters/crypto/local-secret-cipher'),
  ]);
  return { secretCipher, KmsSecretCipher, LocalSecretCipher };
}

describe('secret cipher backend selection', () => {
  beforeEach(() => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', '');
    vi.stubEnv('SECRETS_KMS_KEY_ID', '');
    vi.stubEnv('GATEHOUSE_SECRET_KEY', '');
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('uses AES-GCM with the key from GATEHOUSE_SECRET_KEY when SECRET_CIPHER_BACKEND=local', async () => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', 'local');
    vi.stubEnv('GATEHOUSE_SECRET_KEY', randomBytes(32).toString('base64'));
    const { secretCipher, LocalSecretCipher } = await freshModules();
    const context = { tenant_id: 'ten_1', webhook_id: 'wh_1' };

    const ciphertext = await secretCipher().encrypt('whsec_abc', context);

    expect(secretCipher()).toBeInstanceOf(LocalSecretCipher);
    expect(secretCipher()).toBe(secretCipher());
    expect(ciphertext).toMatch(/^lgcm1\./);
    expect(await secretCipher().decrypt(ciphertext, context)).toBe('whsec_abc');
  });

  it('uses KMS with the key from SECRETS_KMS_KEY_ID when SECRET_CIPHER_BACKEND=kms', async () => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', 'kms');
    vi.stubEnv('SECRETS_KMS_KEY_ID', 'alias/gatehouse-webhook-secrets');
    const { secretCipher, KmsSecretCipher } = await freshModules();

    expect(secretCipher()).toBeInstanceOf(KmsSecretCipher);
  });

  it.each([['an unknown value', 'vault'], ['nothing', '']])('throws a clear error at first use for %s', async (_, value) => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', value);
    const { secretCipher } = await freshModules();

    expect(() => secretCipher()).toThrow(/SECRET_CIPHER_BACKEND must be one of kms, local/);
  });

  it('requires SECRETS_KMS_KEY_ID for kms', async () => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', 'kms');
    const { secretCipher } = await freshModules();

    expect(() => secretCipher()).toThrow(/SECRETS_KMS_KEY_ID is required/);
  });

  it('requires GATEHOUSE_SECRET_KEY for local', async () => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', 'local');
    const { secretCipher } = await freshModules();

    expect(() => secretCipher()).toThrow(/GATEHOUSE_SECRET_KEY is required/);
  });

  it.each([
    ['too short', randomBytes(16).toString('base64')],
    ['too long', randomBytes(33).toString('base64')],
    ['not base64', `${randomBytes(32).toString('base64').slice(0, 40)}!!`],
  ])('rejects a local key that is %s', async (_, key) => {
    vi.stubEnv('SECRET_CIPHER_BACKEND', 'local');
    vi.stubEnv('GATEHOUSE_SECRET_KEY', key);
    const { secretCipher } = await freshModules();

    expect(() => secretCipher()).toThrow(/GATEHOUSE_SECRET_KEY must be the base64 of 32 random bytes/);
  });
});
