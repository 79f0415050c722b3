import type { SecretCipher } from '#shared/domain/secret-cipher';

export interface DecryptCacheOptions {
  /** How long a decrypted secret is reused. */
  maxAgeMs: number;
  /** Most secrets kept at once; the least recently used goes first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * Decrypts each (ciphertext, context) once per `maxAgeMs` instead of once per use. The deliverer
 * signs every attempt, and with KMS a Decrypt per attempt would be a request (and a charge) per
 * webhook delivery; a warm instance now asks once per subscription and interval. Rotation needs no
 * invalidation: a new secret is a new ciphertext, hence a new entry. Failures are not kept.
 */
export class DecryptCache {
  private readonly entries = new Map<string, { plaintext: Promise<string>; expiresAt: number }>();
  private readonly now: () => number;

  constructor(
    private readonly cipher: Pick<SecretCipher, 'decrypt'>,
    private readonly options: DecryptCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const key = cacheKey(ciphertext, context);
    const now = this.now();
    const cached = this.entries.get(key);
    this.entries.delete(key);
    if (cached && cached.expiresAt > now) {
      this.entries.set(key, cached);
      return cached.plaintext;
    }
    const plaintext = this.cipher.decrypt(ciphertext, context);
    const entry = { plaintext, expiresAt: now + this.options.maxAgeMs };
    this.entries.set(key, entry);
    plaintext.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return plaintext;
  }
}

/** The context is bound to the ciphertext, so it is part of the key (in a fixed key order). */
function cacheKey(ciphertext: string, context: Record<string, string>): string {
  return JSON.stringify([ciphertext, Object.entries(context).sort(([a], [b]) => a.localeCompare(b))]);
}
