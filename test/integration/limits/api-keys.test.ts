import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { API_KEY_PREFIX, apiKeyChecksum, hashApiKey, passesOfflineChecks } from '#shared/domain/api-key';
import { UnauthorizedError } from '#shared/domain/errors';
import { repositoryRoot } from '#lib/local/handler-loader';
import type { Provisioned } from '#lib/local/provision';
import { authenticate, createApiKey, ensureApiKey, ensureDevApiKey, revokeManagedApiKeysExcept } from '#shared/services/api-keys';
import { effectiveLimits } from '#shared/services/tenant-limits';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

const run = promisify(execFile);
let provisioned: Provisioned;

/** `npm run keys -- …` as an operator runs it: a child process against the table named by --table. */
async function keysCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(repositoryRoot, 'node_modules/.bin/tsx'), [join(repositoryRoot, 'bin/keys.ts'), ...args, '--table', provisioned.tableName], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, AWS_ENDPOINT_URL_DYNAMODB: inject('engines').dynamodb, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const bearer = (key: string) => `Bearer ${key}`;
const at = (iso: string) => ({ now: () => new Date(iso) });

describe('API keys on DynamoDB Local', () => {
  beforeAll(async () => {
    provisioned = await provisionForTest('apikeys');
  });

  it('refuses a mistyped or made-up gh_live_ key without a database call', async () => {
    const { key } = await createApiKey(uniqueTenant());
    const typo = `${key.slice(0, 20)}${key[20] === 'A' ? 'B' : 'A'}${key.slice(21)}`;
    const madeUp = `${API_KEY_PREFIX}${'x'.repeat(30)}000000`;
    const send = vi.spyOn(documentClient(), 'send');

    await expect(authenticate(bearer(typo))).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(authenticate(bearer(madeUp))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(send).not.toHaveBeenCalled();

    await expect(authenticate(bearer(key))).resolves.toMatchObject({ principal: { type: 'api_key', id: expect.stringMatching(/^key_/) }, role: 'admin' });
    expect(send).toHaveBeenCalled();
    send.mockRestore();
  });

  it('keeps dev keys of GATEHOUSE_API_KEYS working, and refuses to register a gh_live_ key whose checksum is wrong', async () => {
    const tenant = uniqueTenant();
    const devKey = `key_${tenant}`;
    await ensureApiKey(tenant, devKey);

    await expect(authenticate(bearer(devKey))).resolves.toMatchObject({ tenantId: tenant });
    const payload = `${API_KEY_PREFIX}${'a'.repeat(30)}`;
    await expect(ensureApiKey(tenant, `${payload}${apiKeyChecksum(payload)}`)).resolves.toBeUndefined();
    await expect(ensureApiKey(tenant, `${payload}zzzzzz`)).rejects.toThrow(/checksum does not match/);
  });

  it('writes the last-used time at most once a minute per key', async () => {
    const { key } = await createApiKey(uniqueTenant());
    const stored = async () => (await apiKeyRepository.findByHash(hashApiKey(key)))?.last_used_at;

    await authenticate(bearer(key), at('2030-01-01T10:00:00.000Z'));
    expect(await stored()).toBe('2030-01-01T10:00:00.000Z');
    await authenticate(bearer(key), at('2030-01-01T10:00:59.999Z'));
    expect(await stored()).toBe('2030-01-01T10:00:00.000Z');
    await authenticate(bearer(key), at('2030-01-01T10:01:00.000Z'));
    expect(await stored()).toBe('2030-01-01T10:01:00.000Z');
  });

  it('writes one last-used time when many instances see the same stale one at once', async () => {
    const { key, record } = await createApiKey(uniqueTenant());
    const notBefore = '2031-01-01T09:59:00.001Z';

    await Promise.all(Array.from({ length: 10 }, (_, index) => apiKeyRepository.touch(record.key_hash, `2031-01-01T10:00:00.00${index}Z`, notBefore)));

    const lastUsed = (await apiKeyRepository.findByHash(hashApiKey(key)))?.last_used_at;
    expect(lastUsed).toMatch(/^2031-01-01T10:00:00\.00\dZ$/);
    // A later touch within the minute is refused by the condition: the first write stands.
    await apiKeyRepository.touch(record.key_hash, '2031-01-01T10:00:30.000Z', '2031-01-01T09:59:30.001Z');
    expect((await apiKeyRepository.findByHash(hashApiKey(key)))?.last_used_at).toBe(lastUsed);
  });

  describe('the keys the local runtime manages', () => {
    const works = (key: string) => authenticate(bearer(key)).then(() => true, () => false);

    it('revokes the managed keys a start no longer lists, reinstates one listed again, and leaves keys of the CLI alone', async () => {
      const tenant = uniqueTenant();
      const [listed, unlisted] = [`key_listed_${tenant}`, `key_unlisted_${tenant}`];
      const { key: cliKey } = await createApiKey(tenant);
      for (const key of [listed, unlisted, cliKey]) await ensureApiKey(tenant, key);

      const revoked = await revokeManagedApiKeysExcept([listed, cliKey]);

      expect(revoked.map((record) => record.key_hash)).toContain(hashApiKey(unlisted));
      expect([await works(listed), await works(unlisted), await works(cliKey)]).toEqual([true, false, true]);
      // A CLI key the variable once listed is still the CLI's: unlisted, it keeps working.
      await revokeManagedApiKeysExcept([]);
      expect([await works(listed), await works(cliKey)]).toEqual([false, true]);
      await ensureApiKey(tenant, listed);
      expect(await works(listed)).toBe(true);
    });

    it('reuses the dev key while it is live, and makes a fresh one once it is revoked', async () => {
      const first = await ensureDevApiKey(undefined);
      expect(first.created).toBe(true);
      expect(await ensureDevApiKey(first.key)).toEqual({ key: first.key, created: false });

      await revokeManagedApiKeysExcept([]);
      const fresh = await ensureDevApiKey(first.key);

      expect(fresh.created).toBe(true);
      expect(fresh.key).not.toBe(first.key);
      expect([await works(first.key), await works(fresh.key)]).toEqual([false, true]);
    });
  });

  describe('the keys CLI', () => {
    it('creates a key shown once, lists it without the key, and revokes it', async () => {
      const tenant = uniqueTenant('cli');

      const created = await keysCli('create', '--tenant', tenant);

      expect(created.code).toBe(0);
      const key = /API key \(shown once, store it now\): (\S+)/.exec(created.stdout)?.[1] ?? '';
      expect(passesOfflineChecks(key) && key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(created.stdout.split(key)).toHaveLength(2);
      const { principal, role } = await authenticate(bearer(key));
      const keyId = principal.id;
      expect(principal.type).toBe('api_key');
      // A key made without --role is an admin.
      expect(role).toBe('admin');

      const listed = await keysCli('list', '--tenant', tenant, '--json');
      expect(listed.code).toBe(0);
      const rows = JSON.parse(listed.stdout);
      expect(rows).toEqual([{ key_id: keyId, tenant_id: tenant, role: 'admin', display_prefix: `${key.slice(0, 12)}…`, created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: '' }]);
      expect(listed.stdout).not.toContain(key);
      expect(listed.stdout).not.toContain(hashApiKey(key));

      const revoked = await keysCli('revoke', keyId);
      expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked ${keyId} of tenant ${tenant}`) });
      await expect(authenticate(bearer(key))).rejects.toBeInstanceOf(UnauthorizedError);
      expect(JSON.parse((await keysCli('list', '--tenant', tenant, '--json')).stdout)[0].revoked_at).not.toBe('');
    });

    it('gives a key the role named by --role, and refuses a role that does not exist', async () => {
      const tenant = uniqueTenant('cli');
      const created = await keysCli('create', '--tenant', tenant, '--role', 'viewer', '--name', 'dashboards');
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout.slice(0, created.stdout.indexOf('API key')))).toMatchObject({ role: 'viewer', name: 'dashboards' });
      const key = /API key \(shown once, store it now\): (\S+)/.exec(created.stdout)?.[1] ?? '';
      expect(await authenticate(bearer(key))).toMatchObject({ tenantId: tenant, role: 'viewer' });
      expect(await keysCli('create', '--tenant', tenant, '--role', 'owner')).toMatchObject({ code: 2, stderr: expect.stringContaining('--role must be one of') });
    });

    it('sets, shows and clears a tenant’s limits, and refuses values out of range', async () => {
      const tenant = uniqueTenant('cli');

      const set = await keysCli('limits', '--tenant', tenant, '--rate', '7', '--burst', '9', '--tasks', '2');

      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout)).toMatchObject({ tenant_id: tenant, rate_per_second: 7, burst: 9, task_concurrency: 2 });
      expect(await effectiveLimits(tenant)).toEqual({ ratePerSecond: 7, burst: 9, taskConcurrency: 2 });
      const invalid = await keysCli('limits', '--tenant', tenant, '--rate', '0');
      expect(invalid.code).toBe(2);
      expect(invalid.stderr).toMatch(/rate_per_second must be an integer from 1 to 10000/);
      expect(JSON.parse((await keysCli('limits', '--tenant', tenant, '--clear')).stdout)).toMatchObject({ overrides: expect.stringContaining('defaults') });
    });

    it('answers bad usage with exit code 2 and the usage line', async () => {
      expect(await keysCli('create')).toMatchObject({ code: 2, stderr: expect.stringContaining('--tenant') });
      expect(await keysCli('frobnicate')).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run keys') });
      expect(await keysCli('revoke', 'key_doesnotexist')).toMatchObject({ code: 1, stderr: expect.stringContaining("No API key with id 'key_doesnotexist'") });
    });
  });
});
