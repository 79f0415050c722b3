import { getOptionalStringFromEnv, getStringFromEnv, once } from '#shared/config/env';
import type { SecretCipher } from '#shared/domain/secret-cipher';
import { EnvelopeSecretCipher } from '#shared/adapters/crypto/envelope-secret-cipher';
import { localKeyFromEnv, SECRET_CIPHER_ENV } from '#shared/adapters/crypto/secret-cipher';
import { LocalSecretCipher } from '#shared/adapters/crypto/local-secret-cipher';

/** The KMS key of integration credentials: its own, so that only the tool proxy may open them. */
export const INTEGRATIONS_KEY_ENV = 'INTEGRATIONS_KMS_KEY_ID' as const;

/**
 * The cipher of integration credentials: envelope encryption under the integrations key on AWS
 * (`SECRET_CIPHER_BACKEND=kms`), the local AES-GCM cipher otherwise, as webhook secrets are.
 */
export const integrationCipher = once((): SecretCipher => {
  const backend = getOptionalStringFromEnv(SECRET_CIPHER_ENV.backend);
  if (backend === 'kms') return new EnvelopeSecretCipher(getStringFromEnv(INTEGRATIONS_KEY_ENV));
  if (backend === 'local') return new LocalSecretCipher(localKeyFromEnv());
  throw new Error(`Environment variable ${SECRET_CIPHER_ENV.backend} must be kms or local; got ${backend === undefined ? 'nothing' : `'${backend}'`}.`);
});
