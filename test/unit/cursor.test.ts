import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { InvalidRequestError } from '#shared/domain/errors';

const expected = { partitionAttribute: 'gsi1pk', partition: 'TENANT#a#TASKS' };
const lastKey = { pk: 'TENANT#a#TASK#tsk_1', sk: 'TASK', gsi1pk: 'TENANT#a#TASKS', gsi1sk: 'tsk_1' };

describe('DynamoDB page cursors', () => {
  beforeAll(() => {
    process.env.GATEHOUSE_SECRET_KEY ??= randomBytes(32).toString('base64');
  });

  it('round-trips the last evaluated key of the same tenant’s listing', async () => {
    const cursor = (await encodeCursor('a', 'tasks|a', lastKey))!;
    expect(await decodeCursor('a', 'tasks|a', cursor, expected)).toEqual(lastKey);
  });

  it('is null when there is no next page', async () => {
    expect(await encodeCursor('a', 'tasks|a', undefined)).toBeNull();
  });

  it.each([
    ['garbage', async () => 'not a cursor at all %%%'],
    ['another listing', async () => (await encodeCursor('a', 'tasks|other', lastKey))!],
    ['another tenant', async () => (await encodeCursor('b', 'tasks|a', lastKey))!],
    ['a signed key outside the partition', async () => (await encodeCursor('a', 'tasks|a', { ...lastKey, gsi1pk: 'TENANT#b#TASKS' }))!],
    ['an unsigned cursor of the old format', async () => Buffer.from(JSON.stringify({ s: 'tasks|a', k: lastKey })).toString('base64url')],
  ])('rejects %s with 400 invalid_cursor', async (_, cursorOf) => {
    const cursor = await cursorOf();
    await expect(decodeCursor('a', 'tasks|a', cursor, expected)).rejects.toThrow(InvalidRequestError);
    await expect(decodeCursor('a', 'tasks|a', cursor, expected)).rejects.toMatchObject({ code: 'invalid_cursor' });
  });
});
