import fc from 'fast-check';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, apiKeyChecksum, bearerToken, crc32, generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey, passesOfflineChecks, shouldRecordUse } from '#shared/domain/api-key';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API keys', () => {
  it('are recognisable, long, unique and carry a checksum', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(key).toMatch(/^gh_live_[0-9A-Za-z]{36}$/);
      expect(key.slice(-6)).toBe(apiKeyChecksum(key.slice(0, -6)));
      expect(passesOfflineChecks(key)).toBe(true);
    }
  });

  it('checksums with standard CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    fc.assert(fc.property(fc.string(), (text) => crc32(text) === zlibCrc32(text)));
  });

  it('refuses offline any key with one character changed, dropped or added', () => {
    fc.assert(
      fc.property(fc.integer({ min: API_KEY_PREFIX.length, max: 43 }), fc.constantFrom(...BASE62), fc.constantFrom('change', 'drop', 'add'), (position, character, edit) => {
        const key = generateApiKey();
        const typo = edit === 'drop' ? key.slice(0, position) + key.slice(position + 1) : edit === 'add' ? key.slice(0, position) + character + key.slice(position) : key.slice(0, position) + character + key.slice(position + 1);
        fc.pre(typo !== key);
        expect(passesOfflineChecks(typo)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves keys without the prefix, and prefixed keys from before checksums, to the database', () => {
    expect(passesOfflineChecks('key_a')).toBe(true);
    expect(passesOfflineChecks('gh_test_0123456789abcdef')).toBe(true);
    expect(passesOfflineChecks(`${API_KEY_PREFIX}${'A'.repeat(32)}`)).toBe(true);
    expect(passesOfflineChecks(`${API_KEY_PREFIX}${'A'.repeat(36)}`)).toBe(false);
    expect(passesOfflineChecks(`${API_KEY_PREFIX}short`)).toBe(false);
    expect(passesOfflineChecks('has space')).toBe(false);
  });

  it('are stored as a SHA-256 hash compared in constant time', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashesEqual(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(hashesEqual(hashApiKey(key), hashApiKey(`${key}x`))).toBe(false);
  });

  it('are read only from a well-formed Bearer header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
    expect(isWellFormedApiKey('has space')).toBe(false);
    expect(isWellFormedApiKey('x'.repeat(300))).toBe(false);
  });

  it('record their last use at most once a minute', () => {
    const now = new Date('2026-01-01T12:00:00.000Z');
    expect(shouldRecordUse(undefined, now)).toBe(true);
    expect(shouldRecordUse('2026-01-01T11:59:00.001Z', now)).toBe(false);
    expect(shouldRecordUse('2026-01-01T11:59:00.000Z', now)).toBe(true);
  });
});
