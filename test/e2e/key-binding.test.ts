import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signIn } from '../support/sign-in';

/**
 * Issue 25 point 5 over HTTP, from the requests that confirmed it: an admin's API key kept admin
 * power after its creator was demoted to viewer (and created a new admin member), or removed.
 * Now the key is capped at its person's current role at once (403), refused once they are gone
 * (401), and the runtime's recurring job makes the stored keys follow (capped, revoked).
 * Also point 8: an Idempotency-Key is one principal's, never replayed to another.
 */
const suffix = randomBytes(3).toString('hex');
const tenantId = `bound-${suffix}`;
const users = [
  { email: `boss-${suffix}@a.example`, password: 'boss-secret', tenantId, role: 'admin' as const },
  { email: `ada-${suffix}@a.example`, password: 'ada-secret', tenantId, role: 'admin' as const },
  { email: `ben-${suffix}@a.example`, password: 'ben-secret', tenantId, role: 'admin' as const },
];
let runtime: TestRuntime;
let boss: ReturnType<typeof apiClient>;

async function personWithKey(index: number, name: string) {
  const person = apiClient(runtime.baseUrl, await signIn(runtime.baseUrl, users[index].email, users[index].password));
  const userId = (await person('GET', '/me')).body.principal.id as string;
  const created = await person('POST', '/api-keys', { name, role: 'admin' });
  expect(created.status).toBe(201);
  return { userId, keyId: created.body.key_id as string, key: apiClient(runtime.baseUrl, created.body.key) };
}

const listedKey = async (keyId: string) => (await boss('GET', '/api-keys?limit=100')).body.api_keys.find((record: any) => record.key_id === keyId);

describe('API keys bound to the person who created them, over HTTP', () => {
  beforeAll(async () => {
    // The recurring job every second, so the stored keys follow within the test.
    process.env.GATEHOUSE_RECURRING_JOB_INTERVAL_MS = '1000';
    // No authorizer cache: the API answers from the person's role now (the cache's delay has its own test).
    runtime = await startTestRuntime('key-binding', { workers: false, users, authorizerCacheSeconds: 0 });
    boss = apiClient(runtime.baseUrl, await signIn(runtime.baseUrl, users[0].email, users[0].password));
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('refuses a demoted creator’s admin key a new admin member (403), and shows it capped', async () => {
    const ada = await personWithKey(1, 'ada deploys');
    expect((await ada.key('POST', '/members', { email: `before-${suffix}@a.example`, role: 'viewer' })).status).toBe(201);

    expect((await boss('PATCH', `/members/${ada.userId}`, { role: 'viewer' })).status).toBe(200);
    const escalation = await ada.key('POST', '/members', { email: `mallory-${suffix}@a.example`, role: 'admin' });

    expect([escalation.status, escalation.body.code]).toEqual([403, 'forbidden']);
    expect((await ada.key('GET', '/me')).body.role).toBe('viewer');
    expect((await boss('GET', '/members?limit=100')).body.members.map((member: any) => member.email)).not.toContain(`mallory-${suffix}@a.example`);
    expect(await listedKey(ada.keyId)).toMatchObject({ role: 'viewer', granted_role: 'admin', capped: true, suspended: false, bound_to: ada.userId });
    const capped = await eventually(async () => (await boss('GET', '/events?type=api_key.role_capped')).body.events.find((event: any) => event.data.key_id === ada.keyId), 20_000, 250);
    expect(capped.data).toMatchObject({ role: 'viewer', previous_role: 'admin', reason: 'creator_demoted' });
  });

  it('refuses a removed creator’s key (401), then shows it revoked with its reason', async () => {
    const ben = await personWithKey(2, 'ben deploys');
    expect((await ben.key('GET', '/me')).status).toBe(200);

    expect((await boss('DELETE', `/members/${ben.userId}`)).status).toBe(204);
    const refused = await ben.key('GET', '/me');
    const escalation = await ben.key('POST', '/members', { email: `eve-${suffix}@a.example`, role: 'admin' });

    expect(refused.status).toBe(401);
    expect(escalation.status).toBe(401);
    const revoked = await eventually(async () => {
      const listed = await listedKey(ben.keyId);
      return listed.revoked_at ? listed : undefined;
    }, 20_000, 250);
    expect(revoked).toMatchObject({ revoked_reason: 'creator_removed', suspended: false, bound_to: ben.userId });
  });

  it('answers each principal its own request for the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `shared-${suffix}` };
    const first = apiClient(runtime.baseUrl, runtime.keys.a);
    const second = apiClient(runtime.baseUrl, (await first('POST', '/api-keys', { name: 'second admin', role: 'admin' })).body.key);

    const mine = await first('POST', '/api-keys', { name: 'same body', role: 'viewer' }, headers);
    const theirs = await second('POST', '/api-keys', { name: 'same body', role: 'viewer' }, headers);
    const myReplay = await first('POST', '/api-keys', { name: 'same body', role: 'viewer' }, headers);

    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.key_id).not.toBe(mine.body.key_id);
    expect(theirs.body.key).toEqual(expect.stringMatching(/^gh_live_/));
    expect(theirs.body.created_by.id).not.toBe(mine.body.created_by.id);
    expect([myReplay.headers.get('idempotent-replayed'), myReplay.body.key_id]).toEqual(['true', mine.body.key_id]);
  });
});
