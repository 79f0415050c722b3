import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '#shared/domain/roles';
import { callerRecheck, streamRecheckMs } from '#shared/http/stream-caller-recheck';
import { authenticate } from '#shared/services/authentication';
import { createApiKey, revokeApiKey } from '#shared/services/api-keys';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

/**
 * The open stream's re-check of its caller (issue 25, point 5), against DynamoDB Local: it runs
 * the authorizer's own authentication on the stream's Authorization header, so a revoked key is
 * 401, a role that no longer covers the route 403, and a header that now names someone else 401.
 */
const tenant = uniqueTenant('recheck');
const bearer = (key: string) => `Bearer ${key}`;

describe('callerRecheck', () => {
  beforeAll(async () => {
    await provisionForTest('stream-recheck');
  });

  afterEach(() => {
    delete process.env.STREAM_RECHECK_SECONDS;
  });

  it('lets a key that is still valid and still allowed go on reading', async () => {
    const { key } = await createApiKey(tenant, { role: 'viewer' });
    const opened = await authenticate(bearer(key));

    expect(await callerRecheck(bearer(key), opened, 'viewer')()).toBeUndefined();
  });

  it('ends the stream with 401 problem+json once the key is revoked', async () => {
    const { key, record } = await createApiKey(tenant, { role: 'admin' });
    const check = callerRecheck(bearer(key), await authenticate(bearer(key)), 'viewer');
    expect(await check()).toBeUndefined();

    await revokeApiKey(record.key_id);

    expect(await check()).toEqual({ type: '/v1/problems/unauthorized', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'The API key is unknown or revoked.' });
  });

  it("ends the stream with 403 problem+json when the caller's role no longer covers the route", async () => {
    const { key } = await createApiKey(tenant, { role: 'viewer' });

    const problem = await callerRecheck(bearer(key), await authenticate(bearer(key)), 'admin')();

    expect(problem).toMatchObject({ type: '/v1/problems/forbidden', status: 403, code: 'forbidden' });
  });

  it('refuses a header that now resolves to another principal than the one the stream was opened for (401)', async () => {
    const { key } = await createApiKey(tenant, { role: 'viewer' });
    const other: Caller = { ...(await authenticate(bearer(key))), principal: { type: 'api_key', id: 'key_someone_else' } };

    expect(await callerRecheck(bearer(key), other, 'viewer')()).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await callerRecheck(undefined, other, 'viewer')()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('re-checks every STREAM_RECHECK_SECONDS, 30 s by default and never less often than every 30 s', () => {
    expect(streamRecheckMs()).toBe(30_000);
    process.env.STREAM_RECHECK_SECONDS = '2';
    expect(streamRecheckMs()).toBe(2_000);
    process.env.STREAM_RECHECK_SECONDS = '840';
    expect(streamRecheckMs()).toBe(30_000);
    process.env.STREAM_RECHECK_SECONDS = '0';
    expect(streamRecheckMs()).toBe(1_000);
  });
});
