import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretDecryptionError, type SecretCipher } from '#shared/domain/secret-cipher';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
// 96-bit random nonces are GCM's recommended size; with one key per deployment the collision
// bound (2^32 encryptions) is far above the number of webhook secrets we will ever store.
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Versioned prefix so a later format (or a KMS ciphertext stored by mistake) is recognised, not misparsed. */
const FORMAT = 'lgcm1';

/**
 * AES-256-GCM with a key held in memory, for tests and the local runtime. The ciphertext is
 * `lgcm1.<iv>.<ciphertext>.<tag>` (base64url parts); the context is authenticated as AAD.
 */
export class LocalSecretCipher implements SecretCipher {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== KEY_BYTES) throw new RangeError(`LocalSecretCipher needs a ${KEY_BYTES}-byte key, got ${key.length} bytes`);
    // Copy, so the caller zeroing or reusing its buffer cannot change our key.
    this.key = Buffer.from(key);
  }

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(encodeContext(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const parts = ciphertext.split('.');
    if (parts.length !== 4 || parts[0] !== FORMAT) throw new SecretDecryptionError('Not a local secret ciphertext.');
    const [iv, data, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptionError('Malformed local secret ciphertext.');
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(encodeContext(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      // GCM reports tampering, a wrong key and a wrong context identically, and so do we.
      throw new SecretDecryptionError();
    }
  }
}

/**
 * Canonical AAD: entries sorted by key, JSON-encoded. Sorting makes it order-insensitive like a KMS
 * encryption context; JSON keeps `{a: 'b.c'}` and `{'a.b': 'c'}` apart, which naive joining would not.
 */
function encodeContext(context: Record<string, string>): Buffer {
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(entries), 'utf8');
}
