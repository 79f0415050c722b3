import { DecryptCommand, EncryptCommand, IncorrectKeyException, InvalidCiphertextException, KMSClient } from '@aws-sdk/client-kms';
import { once } from '#shared/config/env';
import { SecretDecryptionError, type SecretCipher } from '#shared/domain/secret-cipher';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** Versioned prefix, so a local (`lgcm1.`) ciphertext or a later format is recognised, not sent to KMS. */
const FORMAT = 'kms1';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The one KMS client of a process, created on first use; region and credentials from the environment. */
export const kmsClient = once(() => traced(withoutSdkLogger(new KMSClient({ maxAttempts: 3, requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 } }))));

/**
 * Webhook secrets encrypted by AWS KMS under one key. The context is the KMS encryption context:
 * KMS binds it to the ciphertext (and CloudTrail logs it), so a ciphertext copied onto another
 * tenant's or webhook's record does not decrypt there. The ciphertext is `kms1.<base64 blob>`.
 */
export class KmsSecretCipher implements SecretCipher {
  /** `client` is for tests and callers with their own client; the process's shared one otherwise. */
  constructor(
    private readonly keyId: string,
    private readonly client: () => KMSClient = kmsClient,
  ) {
    if (keyId.trim() === '') throw new Error('KmsSecretCipher needs a KMS key id or ARN.');
  }

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const { CiphertextBlob } = await this.client().send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: { ...context } }),
    );
    if (!CiphertextBlob?.length) throw new Error('KMS Encrypt returned no ciphertext.');
    return `${FORMAT}.${Buffer.from(CiphertextBlob).toString('base64')}`;
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const [format, blob, ...rest] = ciphertext.split('.');
    if (format !== FORMAT || blob === undefined || rest.length > 0) throw new SecretDecryptionError('Not a KMS secret ciphertext.');
    if (!BASE64.test(blob)) throw new SecretDecryptionError('Malformed KMS secret ciphertext.');
    try {
      // Naming the key makes KMS refuse a ciphertext made under any other key, instead of
      // decrypting with whichever key the blob names.
      const { Plaintext } = await this.client().send(
        new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(blob, 'base64'), EncryptionContext: { ...context } }),
      );
      if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext.');
      return Buffer.from(Plaintext).toString('utf8');
    } catch (error) {
      // KMS answers a wrong context, a tampered blob and another key's blob with these two; anything
      // else (throttling, access denied, a disabled key) is an outage, not a bad secret, and propagates.
      if (error instanceof InvalidCiphertextException || error instanceof IncorrectKeyException) throw new SecretDecryptionError();
      throw error;
    }
  }
}
