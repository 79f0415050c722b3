import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, bearerToken, generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey } from '#shared/domain/api-key';

describe('API keys', () => {
  it('are recognisable, long and unique', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(key).toMatch(/^gh_live_[0-9A-Za-z]{32}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
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
});
