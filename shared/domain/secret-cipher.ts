/**
 * Webhook signing secrets are stored encrypted; this port is all the domain knows about how.
 * The KMS adapter serves deployments, the local AES-GCM adapter serves tests and the local runtime.
 *
 * `context` is bound to the ciphertext (KMS encryption context, or AAD locally): decrypting with a
 * different context fails, so a ciphertext copied onto another tenant's or subscription's record
 * cannot be decrypted there. Pass the same identifying fields (e.g. tenant and subscription id)
 * on both sides; key order does not matter.
 */
export interface SecretCipher {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

/** The ciphertext is malformed, was tampered with, or belongs to another context or key. */
export class SecretDecryptionError extends Error {
  constructor(message = 'The stored secret could not be decrypted.') {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}
