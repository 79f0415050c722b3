import { DecryptCommand, GenerateDataKeyCommand, IncorrectKeyException, InvalidCiphertextException, type KMSClient } from '@aws-sdk/client-kms';
import { kmsClient } from '#shared/adapters/crypto/kms-secret-cipher';
import { LocalSecretCipher } from '#shared/adapters/crypto/local-secret-cipher';
import { SecretDecryptionError, type SecretCipher } from '#shared/domain/secret-cipher';

const FORMAT = 'kenv1';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Envelope encryption under a KMS key: each secret gets its own 256-bit data key from
 * GenerateDataKey, the secret is sealed with it locally (AES-256-GCM, the context as AAD) and only
 * the KMS-encrypted data key is kept beside it, bound to the same encryption context. The
 * plaintext never travels to KMS and has no size limit; opening needs kms:Decrypt on that key
 * with that context. Ciphertext: `kenv1.<encrypted data key>.<local AES-GCM ciphertext>`.
 */
export class EnvelopeSecretCipher implements SecretCipher {
  constructor(
    private readonly keyId: string,
    private readonly client: () => KMSClient = kmsClient,
  ) {
    if (keyId.trim() === '') throw new Error('EnvelopeSecretCipher needs a KMS key id or ARN.');
  }

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const { CiphertextBlob, Plaintext } = await this.client().send(new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: { ...context } }));
    if (!CiphertextBlob?.length || Plaintext?.length !== 32) throw new Error('KMS GenerateDataKey returned no data key.');
    try {
      const sealed = await new LocalSecretCipher(Plaintext).encrypt(plaintext, context);
      return `${FORMAT}.${Buffer.from(CiphertextBlob).toString('base64')}.${sealed}`;
    } finally {
      Plaintext.fill(0);
    }
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const [format, wrappedKey, ...sealed] = ciphertext.split('.');
    if (format !== FORMAT || wrappedKey === undefined || !BASE64.test(wrappedKey) || sealed.length === 0) throw new SecretDecryptionError('Not an envelope ciphertext.');
    let dataKey: Uint8Array;
    try {
      const { Plaintext } = await this.client().send(new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(wrappedKey, 'base64'), EncryptionContext: { ...context } }));
      if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext.');
      dataKey = Plaintext;
    } catch (error) {
      // A wrong context, a tampered blob or another key's blob; anything else is an outage and propagates.
      if (error instanceof InvalidCiphertextException || error instanceof IncorrectKeyException) throw new SecretDecryptionError();
      throw error;
    }
    try {
      return await new LocalSecretCipher(dataKey).decrypt(sealed.join('.'), context);
    } finally {
      dataKey.fill(0);
    }
  }
}
