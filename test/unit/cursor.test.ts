import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { InvalidRequestError } from '#shared/domain/errors';

const expected = { partitionAttribute: 'gsi1pk', partition: 'TENANT#a#TASKS' };
const lastKey = { pk: 'TENANT#a#TASK#tsk_1', sk: 'TASK', gsi1pk: 'TENANT#a#TASKS', gsi1sk: 'tsk_1' };

describe('page cursors', () => {
  it('round-trips the last evaluated key of the same listing', () => {
    const cursor = encodeCursor('tasks|a', lastKey)!;
    expect(decodeCursor('tasks|a', cursor, expected)).toEqual(lastKey);
  });

  it('is null when there is no next page', () => {
    expect(encodeCursor('tasks|a', undefined)).toBeNull();
  });

  it.each([
    ['garbage', 'not base64 json at all %%%'],
    ['another listing', encodeCursor('tasks|other', lastKey)!],
    ['another tenant', encodeCursor('tasks|a', { ...lastKey, gsi1pk: 'TENANT#b#TASKS' })!],
    ['non-string key values', Buffer.from(JSON.stringify({ s: 'tasks|a', k: { gsi1pk: 5 } })).toString('base64url')],
    ['an array', Buffer.from(JSON.stringify([1, 2])).toString('base64url')],
  ])('rejects %s with a 400-class error', (_, cursor) => {
    expect(() => decodeCursor('tasks|a', cursor, expected)).toThrow(InvalidRequestError);
  });
});
