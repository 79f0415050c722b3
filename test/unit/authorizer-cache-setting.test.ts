import { afterEach, describe, expect, it } from 'vitest';
import { authorizer } from '#functions/routes';
import { authorizerCacheSecondsFromEnv } from '#lib/local/runtime';

const VARIABLE = 'GATEHOUSE_AUTHORIZER_CACHE_SECONDS';
const configured = process.env[VARIABLE];

describe('GATEHOUSE_AUTHORIZER_CACHE_SECONDS', () => {
  afterEach(() => {
    if (configured === undefined) delete process.env[VARIABLE];
    else process.env[VARIABLE] = configured;
  });

  it('defaults to the TTL the stack gives API Gateway', () => {
    delete process.env[VARIABLE];

    expect(authorizerCacheSecondsFromEnv()).toBe(authorizer.cacheTtlSeconds);
  });

  it('takes 0 (no cache) to 3600, as API Gateway does, and refuses anything else at start', () => {
    for (const [raw, seconds] of [['0', 0], ['5', 5], ['3600', 3600]] as const) {
      process.env[VARIABLE] = raw;
      expect(authorizerCacheSecondsFromEnv()).toBe(seconds);
    }
    for (const raw of ['-1', '3601', '1.5', 'soon']) {
      process.env[VARIABLE] = raw;
      expect(() => authorizerCacheSecondsFromEnv(), raw).toThrow(VARIABLE);
    }
  });
});
