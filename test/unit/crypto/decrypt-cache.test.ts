import { describe, expect, it } from 'vitest';
import { DecryptCache } from '#shared/domain/decrypt-cache';
import { SecretDecryptionError } from '#shared/domain/secret-cipher';

/** A cipher that counts its decrypts and fails for ciphertexts starting with `bad`. */
function countingCipher() {
  const calls: string[] = [];
  return {
    calls,
    decrypt: async (ciphertext: string, context: Record<string, string>) => {
      calls.push(ciphertext);
      if (ciphertext.startsWith('bad')) throw new SecretDecryptionError();
      return `plain:${ciphertext}:${context.webhook_id}`;
    },
  };
}

describe('DecryptCache', () => {
  const context = { tenant_id: 'ten_a', webhook_id: 'whk_1' };

  it('decrypts a ciphertext once while it is fresh, again once it expired', async () => {
    let now = 0;
    const cipher = countingCipher();
    const cache = new DecryptCache(cipher, { maxAgeMs: 1_000, maxEntries: 10, now: () => now });

    expect(await cache.decrypt('ct1', context)).toBe('plain:ct1:whk_1');
    now = 999;
    expect(await cache.decrypt('ct1', { webhook_id: 'whk_1', tenant_id: 'ten_a' })).toBe('plain:ct1:whk_1');
    expect(cipher.calls).toEqual(['ct1']);

    now = 1_000;
    await cache.decrypt('ct1', context);
    expect(cipher.calls).toEqual(['ct1', 'ct1']);
  });

  it('keeps ciphertexts and contexts apart: the context is bound to the ciphertext', async () => {
    const cipher = countingCipher();
    const cache = new DecryptCache(cipher, { maxAgeMs: 60_000, maxEntries: 10 });

    expect(await cache.decrypt('ct1', context)).toBe('plain:ct1:whk_1');
    expect(await cache.decrypt('ct1', { ...context, webhook_id: 'whk_2' })).toBe('plain:ct1:whk_2');
    expect(await cache.decrypt('ct2', context)).toBe('plain:ct2:whk_1');
    expect(cipher.calls).toEqual(['ct1', 'ct1', 'ct2']);
  });

  it('shares one decrypt between concurrent callers', async () => {
    const cipher = countingCipher();
    const cache = new DecryptCache(cipher, { maxAgeMs: 60_000, maxEntries: 10 });

    await Promise.all([cache.decrypt('ct1', context), cache.decrypt('ct1', context)]);
    expect(cipher.calls).toEqual(['ct1']);
  });

  it('does not keep failures: the next use tries again', async () => {
    const cipher = countingCipher();
    const cache = new DecryptCache(cipher, { maxAgeMs: 60_000, maxEntries: 10 });

    await expect(cache.decrypt('bad', context)).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(cache.decrypt('bad', context)).rejects.toBeInstanceOf(SecretDecryptionError);
    expect(cipher.calls).toEqual(['bad', 'bad']);
  });

  it('drops the least recently used secret beyond maxEntries', async () => {
    const cipher = countingCipher();
    const cache = new DecryptCache(cipher, { maxAgeMs: 60_000, maxEntries: 2 });

    await cache.decrypt('ct1', context);
    await cache.decrypt('ct2', context);
    await cache.decrypt('ct1', context);
    await cache.decrypt('ct3', context);
    expect(cipher.calls).toEqual(['ct1', 'ct2', 'ct3']);

    await cache.decrypt('ct1', context);
    await cache.decrypt('ct2', context);
    expect(cipher.calls).toEqual(['ct1', 'ct2', 'ct3', 'ct2']);
  });
});
