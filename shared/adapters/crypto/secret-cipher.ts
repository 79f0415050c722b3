import { getOptionalStringFromEnv, getStringFromEnv, once } from '#shared/config/env';
import type { SecretCipher } from '#shared/domain/secret-cipher';
import { KmsSecretCipher } from '#shared/adapters/crypto/kms-secret-cipher';
import { LocalSecretCipher } from '#shared/adapters/crypto/local-secret-cipher';

/** The environment variables of the secret cipher, named once. */
export const SECRET_CIPHER_ENV = {
  /** `kms` (AWS) or `local` (tests and the local runtime). */
  backend: 'SECRET_CIPHER_BACKEND',
  /** Key id, ARN or alias of the KMS key, for `kms`. */
  kmsKeyId: 'SECRETS_KMS_KEY_ID',
  /** Base64 of a 32-byte AES key, for `local`. */
  localKey: 'GATEHOUSE_SECRET_KEY',
} as const;

export type SecretCipherBackend = 'kms' | 'local';

const LOCAL_KEY_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const BACKENDS: Record<SecretCipherBackend, () => SecretCipher> = {
  kms: () => new KmsSecretCipher(getStringFromEnv(SECRET_CIPHER_ENV.kmsKeyId)),
  local: () => new LocalSecretCipher(localKeyFromEnv()),
};

export function localKeyFromEnv(): Buffer {
  const encoded = getStringFromEnv(SECRET_CIPHER_ENV.localKey).trim();
  // Buffer.from(…, 'base64') skips characters it does not know; a typo must not become a shorter key.
  const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length !== LOCAL_KEY_BYTES) {
    throw new Error(`Environment variable ${SECRET_CIPHER_ENV.localKey} must be the base64 of ${LOCAL_KEY_BYTES} random bytes (e.g. \`openssl rand -base64 32\`).`);
  }
  return key;
}

/**
 * The process's secret cipher: KMS on AWS (`SECRET_CIPHER_BACKEND=kms` with `SECRETS_KMS_KEY_ID`),
 * AES-GCM with a key from `GATEHOUSE_SECRET_KEY` locally (`local`). Anything else throws at first use.
 */
export const secretCipher = once((): SecretCipher => {
  const backend = getOptionalStringFromEnv(SECRET_CIPHER_ENV.backend);
  if (backend === undefined || !Object.hasOwn(BACKENDS, backend)) {
    throw new Error(`Environment variable ${SECRET_CIPHER_ENV.backend} must be one of ${Object.keys(BACKENDS).join(', ')}; got ${backend === undefined ? 'nothing' : `'${backend}'`}.`);
  }
  return BACKENDS[backend as SecretCipherBackend]();
});
