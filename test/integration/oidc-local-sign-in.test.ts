import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMembers } from '#shared/services/members';
import { prepareLocalSignIn } from '#lib/local/oidc/local-sign-in';
import { parseLocalUsers } from '#lib/local/oidc/local-users';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

/** What a start of the local runtime makes of its people: members, the dev user's password, the provider's keys. */
describe('the local runtime’s people across starts', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-people-'));

  beforeAll(async () => {
    await provisionForTest('local-sign-in');
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes the dev user once, keeps its password and the provider’s keys 0600, and shows the password only then', async () => {
    const first = await prepareLocalSignIn([], dataDir);
    const second = await prepareLocalSignIn([], dataDir);

    expect(first.devUser).toMatchObject({ email: 'dev@gatehouse.local', password: expect.any(String), file: join(dataDir, 'dev-user') });
    expect(second.devUser).toEqual({ email: 'dev@gatehouse.local', file: join(dataDir, 'dev-user') });
    expect(readFileSync(join(dataDir, 'dev-user'), 'utf8')).toBe(`dev@gatehouse.local:${first.devUser!.password}\n`);
    for (const file of ['dev-user', 'oidc-keys.json']) expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
    expect((await listMembers('dev', { limit: 10 })).members.map((member) => [member.email, member.role])).toEqual([['dev@gatehouse.local', 'admin']]);
  });

  it('makes the configured people members with their listed role, moves one the list moved, and drops the dev user’s password', async () => {
    const [a, b] = [uniqueTenant('local'), uniqueTenant('local')];

    await prepareLocalSignIn(parseLocalUsers(`ann@example.com:x:${a}:admin,bo@example.com:y:${a}:viewer`), dataDir);
    await prepareLocalSignIn(parseLocalUsers(`ann@example.com:x:${a}:operator,bo@example.com:y:${b}:viewer`), dataDir);

    expect((await listMembers(a, { limit: 10 })).members.map((member) => [member.email, member.role, member.added_by])).toEqual([['ann@example.com', 'operator', undefined]]);
    expect((await listMembers(b, { limit: 10 })).members.map((member) => member.email)).toEqual(['bo@example.com']);
    expect(existsSync(join(dataDir, 'dev-user'))).toBe(false);
  });
});
