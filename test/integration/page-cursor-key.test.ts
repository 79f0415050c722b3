import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { openCursor, sealCursor } from '#shared/domain/page-cursor';
import { startKmsServer } from '../support/providers/kms-server';
import { provisionForTest } from '../support/provisioned';

const KEY = 'arn:aws:kms:us-east-1:123456789012:key/data';
let kms: Awaited<ReturnType<typeof startKmsServer>>;

/** pageCursorKey of a fresh process (a cold Lambda instance): the module's memo starts empty. */
async function coldKey(): Promise<Buffer> {
  vi.resetModules();
  const { pageCursorKey } = await import('#shared/adapters/crypto/page-cursor-key');
  return pageCursorKey();
}

describe('the page cursor key on AWS: a KMS-wrapped secret in the table, with the real KMS client on a loopback KMS', () => {
  beforeAll(async () => {
    await provisionForTest('cursor-key');
    kms = await startKmsServer([KEY]);
    Object.assign(process.env, { PAGE_CURSOR_KMS_KEY_ID: KEY, AWS_ENDPOINT_URL_KMS: kms.endpoint });
  });

  afterAll(async () => {
    await kms?.close();
  });

  it('creates the secret once, wrapped for the page-cursor context only, and every instance derives the same key from it', async () => {
    const [first, concurrent] = await Promise.all([coldKey(), coldKey()]);
    const later = await coldKey();

    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.pageCursorSecret(), ConsistentRead: true }));
    expect(first.equals(concurrent) && first.equals(later)).toBe(true);
    const binding = { tenant: 't', list: 'members|t' };
    expect(openCursor(later, binding, sealCursor(first, binding, { id: 'usr_1' }))).toEqual({ id: 'usr_1' });
    expect(Item?.wrapped).toEqual(expect.any(String));
    // The stored item is the KMS blob, never the key or the secret.
    expect(Buffer.from(String(Item?.wrapped), 'base64').includes(first)).toBe(false);
    const targets = kms.state.requests.map((request) => request.target);
    expect(targets.filter((target) => target === 'TrentService.GenerateDataKey')).toEqual([]);
    expect(targets).toContain('TrentService.GenerateDataKeyWithoutPlaintext');
    expect(kms.state.requests.every((request) => JSON.parse(request.body).EncryptionContext?.purpose === 'page-cursor')).toBe(true);
  });
});
