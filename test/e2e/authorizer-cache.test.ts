import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#shared/domain/api-key';
import { createApiKey, ensureApiKey, revokeApiKey } from '#shared/services/api-keys';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';

/**
 * The local gateway caches the authorizer's answer per Authorization header as the deployed REST
 * API does (`resultsCacheTtl`), so local figures and behaviour match AWS: a revoked key works
 * until the TTL ends. Other tests run with the cache off (vitest.config.ts).
 */
const TTL_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let runtime: TestRuntime;

describe('authorizer result cache of the local gateway', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('authorizer-cache', { workers: false, authorizerCacheSeconds: TTL_SECONDS });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('keeps admitting a revoked key until the TTL ends, then answers 401', async () => {
    const { key, record } = await createApiKey(`tenant-cached-${Date.now()}`);
    const call = apiClient(runtime.baseUrl, key);
    expect((await call('GET', '/tasks')).status).toBe(200);

    await revokeApiKey(record.key_id);

    expect((await call('GET', '/tasks')).status).toBe(200);
    await sleep(TTL_SECONDS * 1000 + 200);
    const refused = await call('GET', '/tasks');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'unauthorized' });
  });

  it('does not keep a refusal: a key registered after a 401 works at once', async () => {
    const key = generateApiKey();
    const call = apiClient(runtime.baseUrl, key);
    expect((await call('GET', '/tasks')).status).toBe(401);

    await ensureApiKey(`tenant-late-${Date.now()}`, key);

    expect((await call('GET', '/tasks')).status).toBe(200);
  });

  it('caches per Authorization header: each key still gets its own tenant', async () => {
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    const b = apiClient(runtime.baseUrl, runtime.keys.b);
    const created = await a('POST', '/projects', { name: 'Cached', target: 'https://example.com' });
    expect(created.status).toBe(201);

    expect((await a('GET', `/projects/${created.body.project_id}`)).status).toBe(200);
    expect((await b('GET', `/projects/${created.body.project_id}`)).status).toBe(404);
  });
});
