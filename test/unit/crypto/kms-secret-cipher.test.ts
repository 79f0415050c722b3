import { DecryptCommand, EncryptCommand, IncorrectKeyException, InvalidCiphertextException, KMSClient, KMSInvalidStateException } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { KmsSecretCipher } from '#shared/adapters/crypto/kms-secret-cipher';
import { SecretDecryptionError } from '#shared/domain/secret-cipher';

const KEY_ID = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const context = { tenant_id: 'ten_1', webhook_id: 'wh_1' };
const kms = mockClient(KMSClient);

interface FakeBlob {
  keyId: string;
  context: Record<string, string>;
  plaintext: string;
}

const sameContext = (a: Record<string, string> = {}, b: Record<string, string> = {}) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);

/** A KMS stand-in that binds key and encryption context to the blob, as KMS does. */
function fakeKms(): void {
  kms.on(EncryptCommand).callsFake((input) => {
    const blob: FakeBlob = { keyId: input.KeyId, context: input.EncryptionContext, plaintext: Buffer.from(input.Plaintext).toString('utf8') };
    return { CiphertextBlob: Buffer.from(JSON.stringify(blob)), KeyId: input.KeyId };
  });
  kms.on(DecryptCommand).callsFake((input) => {
    let blob: FakeBlob;
    try {
      blob = JSON.parse(Buffer.from(input.CiphertextBlob).toString('utf8'));
    } catch {
      throw new InvalidCiphertextException({ message: 'invalid ciphertext', $metadata: {} });
    }
    if (blob.keyId !== input.KeyId) throw new IncorrectKeyException({ message: 'incorrect key', $metadata: {} });
    if (!sameContext(blob.context, input.EncryptionContext)) throw new InvalidCiphertextException({ message: 'invalid ciphertext', $metadata: {} });
    return { Plaintext: Buffer.from(blob.plaintext, 'utf8'), KeyId: input.KeyId };
  });
}

describe('KmsSecretCipher', () => {
  const cipher = new KmsSecretCipher(KEY_ID, () => new KMSClient({ region: 'eu-west-1' }));

  beforeEach(() => {
    kms.reset();
  });

  it('encrypts under the configured key with the context as the exact encryption context', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]), KeyId: KEY_ID });

    const ciphertext = await cipher.encrypt('whsec_abc', context);

    expect(ciphertext).toBe(`kms1.${Buffer.from([0xde, 0xad, 0xbe, 0xef]).toString('base64')}`);
    const calls = kms.commandCalls(EncryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({ KeyId: KEY_ID, Plaintext: Buffer.from('whsec_abc', 'utf8'), EncryptionContext: { tenant_id: 'ten_1', webhook_id: 'wh_1' } });
  });

  it('decrypts with the same key and context, passing the blob back as bytes', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('whsec_abc', 'utf8'), KeyId: KEY_ID });

    const plaintext = await cipher.decrypt(`kms1.${Buffer.from([1, 2, 3]).toString('base64')}`, { webhook_id: 'wh_1', tenant_id: 'ten_1' });

    expect(plaintext).toBe('whsec_abc');
    expect(kms.commandCalls(DecryptCommand)[0].args[0].input).toEqual({ KeyId: KEY_ID, CiphertextBlob: Buffer.from([1, 2, 3]), EncryptionContext: context });
  });

  it('round-trips a secret through KMS, in whatever key order the context is written', async () => {
    fakeKms();

    const ciphertext = await cipher.encrypt('whsec_c2VjcmV0 ✓', context);

    expect(ciphertext).toMatch(/^kms1\.[A-Za-z0-9+/]+={0,2}$/);
    expect(ciphertext).not.toContain('whsec_');
    expect(await cipher.decrypt(ciphertext, { webhook_id: 'wh_1', tenant_id: 'ten_1' })).toBe('whsec_c2VjcmV0 ✓');
  });

  it('maps KMS refusing a ciphertext moved to another webhook or tenant to SecretDecryptionError', async () => {
    fakeKms();
    const ciphertext = await cipher.encrypt('whsec_abc', context);

    await expect(cipher.decrypt(ciphertext, { ...context, webhook_id: 'wh_2' })).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(cipher.decrypt(ciphertext, { webhook_id: 'wh_1' })).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('maps InvalidCiphertextException and IncorrectKeyException to SecretDecryptionError', async () => {
    kms.on(DecryptCommand).rejectsOnce(new InvalidCiphertextException({ message: 'bad', $metadata: {} })).rejectsOnce(new IncorrectKeyException({ message: 'other key', $metadata: {} }));

    await expect(cipher.decrypt('kms1.AQID', context)).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(cipher.decrypt('kms1.AQID', context)).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('lets KMS outages through as they are, so they are not mistaken for a bad secret', async () => {
    const outage = new KMSInvalidStateException({ message: 'key disabled', $metadata: {} });
    kms.on(DecryptCommand).rejects(outage);

    const failure = cipher.decrypt('kms1.AQID', context);

    await expect(failure).rejects.toBe(outage);
  });

  it.each([
    ['a local ciphertext', 'lgcm1.aXY.ZGF0YQ.dGFn'],
    ['no prefix', 'AQID'],
    ['an empty blob', 'kms1.'],
    ['a blob that is not base64', 'kms1.not base64!'],
    ['extra parts', 'kms1.AQID.AQID'],
  ])('rejects %s without calling KMS', async (_, ciphertext) => {
    await expect(cipher.decrypt(ciphertext, context)).rejects.toBeInstanceOf(SecretDecryptionError);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });

  it('uses one KMS client per process when none is given', async () => {
    const { kmsClient } = await import('#shared/adapters/crypto/kms-secret-cipher');
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Uint8Array.from([1]) });

    await new KmsSecretCipher(KEY_ID).encrypt('a', context);
    await new KmsSecretCipher(KEY_ID).encrypt('b', context);

    expect(kmsClient()).toBe(kmsClient());
    expect(new Set(kms.commandCalls(EncryptCommand).map((call) => call.thisValue))).toEqual(new Set([kmsClient()]));
  });
});
