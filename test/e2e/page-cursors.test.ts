import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys as tableKeys } from '#shared/adapters/dynamodb/keys';
import { hashApiKey } from '#shared/domain/api-key';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';

/**
 * Issue 25 point 8: page cursors are signed and carry no key material. The forged cursors that
 * answered 500 on /members and /api-keys (base64 JSON naming the listing, with a last key of the
 * attacker's choosing) are 400 `invalid_cursor`, and GET /api-keys?limit=1's cursor no longer
 * carries the SHA-256 of a key.
 */
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let tenantA: string;
const createdKeys: string[] = [];

/** A cursor in the unsigned format the listings used to accept: the scope and any last key. */
const forged = (scope: string, lastKey: Record<string, string>) => Buffer.from(JSON.stringify({ s: scope, k: lastKey })).toString('base64url');

/** Every page of a listing, `limit` items at a time, with the cursors it handed out. */
async function allPages(call: ReturnType<typeof apiClient>, path: string, field: string): Promise<{ items: any[]; cursors: string[] }> {
  const items: any[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const answer: { status: number; body: any } = await call('GET', `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(answer.status).toBe(200);
    items.push(...answer.body[field]);
    cursor = answer.body.next_cursor;
    if (!cursor) break;
    cursors.push(cursor);
  }
  return { items, cursors };
}

describe('signed page cursors over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('cursors', { workers: false });
    [a, b] = [apiClient(runtime.baseUrl, runtime.keys.a), apiClient(runtime.baseUrl, runtime.keys.b)];
    tenantA = (await a('GET', '/me')).body.tenant_id;
    for (const email of ['one@a.example', 'two@a.example', 'three@a.example']) expect((await a('POST', '/members', { email, role: 'viewer' })).status).toBe(201);
    for (const name of ['first', 'second', 'third']) {
      const created = await a('POST', '/api-keys', { name, role: 'viewer' });
      expect(created.status).toBe(201);
      createdKeys.push(created.body.key);
    }
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers the forged /members cursor with 400 invalid_cursor, not 500', async () => {
    const cursor = forged(`members|${tenantA}`, { pk: tableKeys.membersPartition(tenantA), sk: 'NOT-A-MEMBER' });

    const answer = await a('GET', `/members?limit=1&cursor=${cursor}`);

    expect([answer.status, answer.headers.get('content-type'), answer.body.code]).toEqual([400, 'application/problem+json', 'invalid_cursor']);
  });

  it('answers the forged /api-keys cursor with 400 invalid_cursor, not 500', async () => {
    const cursor = forged(`api_keys|${tenantA}`, { gsi1pk: 'APIKEYS', gsi1sk: `${tenantA}#zzz` });

    const answer = await a('GET', `/api-keys?limit=1&cursor=${cursor}`);

    expect([answer.status, answer.headers.get('content-type'), answer.body.code]).toEqual([400, 'application/problem+json', 'invalid_cursor']);
  });

  it('pages through /api-keys one key at a time with cursors that carry no key hash', async () => {
    const { items, cursors } = await allPages(a, '/api-keys?limit=1', 'api_keys');
    const hashes = [runtime.keys.a, ...createdKeys].map(hashApiKey);

    expect(items.map((key) => key.name)).toEqual(expect.arrayContaining(['first', 'second', 'third']));
    expect(new Set(items.map((key) => key.key_id)).size).toBe(items.length);
    expect(cursors.length).toBeGreaterThanOrEqual(items.length - 1);
    const decoded = cursors.flatMap((cursor) => [cursor, ...cursor.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))]).join('\n');
    for (const hash of hashes) expect(decoded).not.toContain(hash);
    expect(decoded).not.toMatch(/APIKEY#/);
  });

  it('pages through /members one at a time, and refuses every cursor with one character changed', async () => {
    const { items, cursors } = await allPages(a, '/members?limit=1', 'members');

    expect(items.map((member) => member.email)).toEqual(expect.arrayContaining(['one@a.example', 'two@a.example', 'three@a.example']));
    const tampered = cursors[0].slice(0, -2) + (cursors[0].at(-2) === 'A' ? 'B' : 'A') + cursors[0].at(-1);
    const answer = await a('GET', `/members?limit=1&cursor=${tampered}`);
    expect([answer.status, answer.body.code]).toEqual([400, 'invalid_cursor']);
  });

  it('refuses tenant A’s cursor in tenant B’s listing, and a members cursor on /api-keys', async () => {
    const membersCursor = (await a('GET', '/members?limit=1')).body.next_cursor;
    const keysCursor = (await a('GET', '/api-keys?limit=1')).body.next_cursor;

    const answers = [await b('GET', `/members?limit=1&cursor=${membersCursor}`), await b('GET', `/api-keys?limit=1&cursor=${keysCursor}`), await a('GET', `/api-keys?limit=1&cursor=${membersCursor}`)];

    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual(Array(3).fill([400, 'invalid_cursor']));
  });
});
